"""Tables and plots from finished or stored results; never plays games itself."""
