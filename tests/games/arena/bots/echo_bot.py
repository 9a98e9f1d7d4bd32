"""Test bot: logs every line it receives ("log > line") and answers each state with
the next move from its command-line script; exits on Game Over."""

import sys

script = sys.argv[1].split(",") if len(sys.argv) > 1 else ["5"]
first = sys.stdin.readline().rstrip("\n")
print(f"log > {first}", flush=True)
n = int(first.split()[0])
k = 0
for line in sys.stdin:
    line = line.rstrip("\n")
    print(f"log > {line}", flush=True)
    if line == "Game Over":
        break
    if "," not in line and " " not in line:
        for _ in range(n):
            print(f"log > {sys.stdin.readline().rstrip()}", flush=True)
        print(script[k % len(script)], flush=True)
        k += 1
