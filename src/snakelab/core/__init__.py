"""What every game shares: geometry, protocols, registry, replays, errors, conformance."""
