"""expect-exit.py CODE COMMAND...: runs COMMAND (stdout and stderr pass through) and succeeds only
when it exits with exactly CODE. lit's internal shell has no $?, and `not` accepts any non-zero."""
import subprocess
import sys

code = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc != code:
    print(f"expect-exit: {sys.argv[2]} exited with {rc}, expected {code}", file=sys.stderr)
    sys.exit(1)
