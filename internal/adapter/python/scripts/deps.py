# mcp-debugger: run by an interpreter that lacks debugpy, with the directory
# that holds another interpreter's debugpy as argv[1]. Prints, as JSON, the
# modules beside debugpy that debugpy's debuggee side cannot start without
# here (see importpath.go): distributions unbundle debugpy's vendored
# libraries (Debian: pydevd's "bytecode"). Optional imports that fail
# quietly are left alone, so nothing is borrowed that is not needed.
import importlib.abc
import importlib.machinery
import json
import os
import sys

site_dir = sys.argv[1]
allowed = sys.argv[2:]
del sys.path[0]  # this script's directory
sys.path[:] = [p for p in sys.path if p]


def locate(name):
    spec = importlib.machinery.PathFinder.find_spec(name, [site_dir])
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    return spec.origin


class Beside(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: top-level modules found only beside debugpy."""

    refused = set()

    def find_spec(self, name, path=None, target=None):
        if path is not None or "." in name:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, [site_dir])
        if spec is None:
            return None
        if name in allowed:
            return spec
        self.refused.add(name)
        return None


finder = Beside()
sys.meta_path.append(finder)

# As debugpy/__main__.py does for a debuggee: debugpy alone from site_dir.
sys.path.insert(0, site_dir)
import debugpy  # noqa: E402

del sys.path[0]

try:
    import debugpy.server  # noqa: F401 - what a debuggee imports first (pydevd)
except ImportError as exc:
    name = (getattr(exc, "name", None) or "").split(".")[0]
    if name in finder.refused and name not in allowed:
        # Required after all: start afresh with it allowed, since a failed
        # import leaves half-initialised modules behind.
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable] + sys.argv + [name])
    sys.stdout.write(json.dumps({"error": "%s: %s" % (type(exc).__name__, exc)}) + "\n")
    sys.exit(0)
except Exception as exc:
    sys.stdout.write(json.dumps({"error": "%s: %s" % (type(exc).__name__, exc)}) + "\n")
    sys.exit(0)

sys.stdout.write(json.dumps({"paths": [locate(n) for n in allowed]}) + "\n")
