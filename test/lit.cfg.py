# The lit configuration every suite shares (test/passes, test/rewrite, test/lint, test/codegen,
# test/driver, ...). It only works through the generated build/test/lit.site.cfg.py, which says
# where the build put the tools: run suites as `lit build/test/<suite>` (ctest does).
import os
import shutil
import subprocess

import lit.formats

if not hasattr(config, "tempi_obj_root"):
    lit_config.fatal("run lit on the build tree (lit build/test/...), not on the source tree: "
                     "the generated lit.site.cfg.py is missing")

config.name = "TEMPI"
# ShTest in lit's internal shell: current lit rejects execute_external=True on our setup.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".c", ".cpp", ".cu", ".txt", ".type"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "README.md",
                   "unit", "e2e", "gpu", "oracle"]
config.test_source_root = os.path.join(config.tempi_src_root, "test")
config.test_exec_root = os.path.join(config.tempi_obj_root, "test")

# Our tools first, then LLVM's (so a RUN line may start with `not`, FileCheck, ...).
path = os.pathsep.join([config.tempi_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# TEMPI_LIB_DIR: where tempi-cc finds libtempi, for a build of the tools without it
# (test/fuzz/sanitize-tools.sh points it at the main build's).
for var in ("HOME", "TMPDIR", "TEMPI_LIB_DIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Programs built by tempi-cc and run here check every static plan against its datatype
# (runtime/src/host/VerifyPlans.h): a wrong plan aborts the run (exit 70) instead of passing
# unnoticed on host buffers. TEMPI_VERIFY_PLANS=0 in the environment turns it off.
config.environment["TEMPI_VERIFY_PLANS"] = os.environ.get("TEMPI_VERIFY_PLANS", "1")

inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions.append(("%inputs", inputs))                  # test/Inputs (mock mpi.h)
config.substitutions.append(("%mock_mpi", os.path.join(inputs, "mock-mpi")))
config.substitutions.append(("%mpi_include", config.mpi_include))  # the real MPI's headers
config.substitutions.append(("%tempi_include",
                             os.path.join(config.tempi_src_root, "runtime", "include")))
config.substitutions.append(("%tempi_lib", config.tempi_lib_dir))
config.substitutions.append(("%resource_dir", config.clang_resource_dir))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%mpicc", config.mpicc))
config.substitutions.append(("%mpicxx", config.mpicxx))
config.substitutions.append(("%mpiexec", config.mpiexec))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%srcroot", config.tempi_src_root))

# Features a test can REQUIRE.
if config.have_tool:
    config.available_features.add("tool")
if config.have_cuda:
    config.available_features.add("cuda")
# The MPI's Fortran wrapper (Debian's libmpich-dev depends on gfortran): tempi-fort's tests.
if shutil.which("mpifort"):
    config.available_features.add("mpifort")
    config.substitutions.append(("%mpifort", shutil.which("mpifort")))
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0:
            config.available_features.add("cuda-gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
