"""expect-rc.py N CMD...: runs CMD (stderr and stdout passed through) and exits 0 exactly when
CMD exits with status N, so a lit RUN line can check an exit code as a contract."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect-rc: %s exited %d, expected %d\n" % (sys.argv[2], got, want))
    sys.exit(1)
