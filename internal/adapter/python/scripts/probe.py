# mcp-debugger: reports what one Python interpreter offers (see find.go).
# Runs on any Python from 2.7 on, so that old interpreters are described
# rather than crashing the probe.
import json
import os
import sys

# "python -c" puts the working directory first; a debugpy directory there
# must not count as installed.
sys.path[:] = [p for p in sys.path if p]

result = {
    "executable": sys.executable,
    "version": list(sys.version_info[:3]),
    "watch": [os.path.abspath(p) for p in sys.path],
}
# Which file sys.executable is, as this process sees it: a wrapper script
# that runs the interpreter in a chroot or container reports a path that
# names another file (or none) on the server's side.
try:
    st = os.stat(sys.executable)
    result["executable_id"] = [st.st_dev, st.st_ino]
except Exception:
    pass
try:
    import site

    result["watch"].append(site.getusersitepackages())
except Exception:
    pass
try:
    import debugpy

    result["debugpy"] = debugpy.__version__
    result["debugpy_dir"] = os.path.dirname(os.path.abspath(debugpy.__file__))
    st = os.stat(result["debugpy_dir"])
    result["debugpy_dir_id"] = [st.st_dev, st.st_ino]
except Exception as exc:
    result["error"] = "%s: %s" % (type(exc).__name__, exc)
sys.stdout.write(json.dumps(result) + "\n")
