"""check-install.py BUILD PREFIX: after `cmake --install BUILD --prefix PREFIX`, checks that every
program and library this build made is installed, with the public headers, the CMake package and
the pkg-config file, and that no installed package file points back into the build or source tree
(it must work after the build folder is deleted). What "this build made" is read from BUILD itself
(bin/ and lib/), not from the install rules, so a program the rules forget is a failure.
Prints each check; exits 1 listing every problem."""
import glob
import os
import sys

build, prefix = (os.path.realpath(p) for p in sys.argv[1:3])
problems = []


def need(cond, what):
    print(("ok      " if cond else "MISSING ") + what)
    if not cond:
        problems.append(what)


def executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


libdirs = [d for d in glob.glob(os.path.join(prefix, "lib*")) if os.path.isdir(d)]
need(len(libdirs) == 1, "one library folder under the prefix (%s)" % ", ".join(libdirs))
libdir = libdirs[0] if libdirs else os.path.join(prefix, "lib")

programs = ["tempi-cc", "tempi-cxx", "tempi-fort", "tempi-rewrite", "tempi-lint", "tempi-opt", "tempi-measure"]
built = [p for p in programs if executable(os.path.join(build, "bin", p))]
print("built programs: " + " ".join(built))
for p in built:
    need(executable(os.path.join(prefix, "bin", p)), "bin/" + p)
for name in ("tempi-cxx", "tempi-fort"):
    if name in built:
        path = os.path.join(prefix, "bin", name)
        need(os.path.islink(path) and os.readlink(path) == "tempi-cc",
             "bin/%s is a relative link to tempi-cc" % name)
# CMake's lookup of the compiler's archiver under the "tempi-" prefix (tool/driver/tempi-binutils).
binutils = ["tempi-gcc-ar", "tempi-gcc-ranlib", "tempi-gcc-nm"]
if "tempi-cc" in built:
    need(executable(os.path.join(prefix, "bin", "tempi-binutils")), "bin/tempi-binutils")
    for b in binutils:
        path = os.path.join(prefix, "bin", b)
        need(os.path.islink(path) and os.readlink(path) == "tempi-binutils",
             "bin/%s is a relative link to tempi-binutils" % b)
    programs += ["tempi-binutils"] + binutils
for p in sorted(set(os.listdir(os.path.join(prefix, "bin"))) - set(programs)):
    need(False, "bin/%s is installed but is not one of TEMPI's programs" % p)

if os.path.exists(os.path.join(build, "lib", "libtempi.so")):
    need(os.path.isfile(os.path.join(libdir, "libtempi.so")), "libtempi.so")
for h in ("tempi.h", "kernels.cuh"):
    need(os.path.isfile(os.path.join(prefix, "include", "tempi", h)), "include/tempi/" + h)
config = os.path.join(libdir, "cmake", "TEMPI", "TEMPIConfig.cmake")
version = os.path.join(libdir, "cmake", "TEMPI", "TEMPIConfigVersion.cmake")
pc = os.path.join(libdir, "pkgconfig", "tempi.pc")
for f in (config, version, pc):
    need(os.path.isfile(f), os.path.relpath(f, prefix))

src = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
for f in (config, pc):
    if os.path.isfile(f):
        # The prefix itself may lie inside either tree (a test's temporary folder): leave it out.
        text = open(f).read().replace(prefix, "<prefix>")
        need(build not in text and src not in text,
             "%s names neither the build tree nor the source tree" % os.path.relpath(f, prefix))
if problems:
    print("install problems:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("install ok")
