# mcp-debugger: a pytest plugin that debug_test loads (-p mcp_debugger_pytest).
#
# debugpy stops a failing test through its userUnhandled filter, as the
# exception leaves the test into pytest. A RecursionError defeats that: the
# recursion limit is also reached inside debugpy's trace function, and
# Python then turns tracing off for the thread, so the test fails with no
# stop. When pytest reports such a failure and the thread is no longer
# traced, this plugin asks debugpy for the stop it would make on an
# uncaught exception: in the deepest frame of the user's code in the
# traceback, with that frame's locals.
import sys
import threading


def pytest_exception_interact(node, call, report):
    if _traced() or call.excinfo is None:
        # Still traced: debugpy has stopped on this failure already.
        return
    _stop_post_mortem((call.excinfo.type, call.excinfo.value, call.excinfo.tb))


def _traced():
    # Whether debugpy still watches this thread: through sys.settrace, which
    # Python turns off at a RecursionError, or through sys.monitoring (PEP
    # 669; debugpy 1.8 on Python 3.12 and later), where sys.gettrace() is
    # None all along and a RecursionError turns nothing off, so debugpy
    # stops on the failure itself (docs/adapter-quirks.md, debugpy-16).
    if sys.gettrace() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return False
    try:
        return monitoring.get_tool(monitoring.DEBUGGER_ID) is not None
    except Exception:
        return False


def _stop_post_mortem(exc_info):
    try:
        import pydevd
        from _pydevd_bundle.pydevd_additional_thread_info import set_additional_thread_info
    except ImportError:
        return
    debugger = pydevd.get_global_debugger()
    if debugger is None:
        return
    thread = threading.current_thread()
    debugger.stop_on_unhandled_exception(debugger, thread, set_additional_thread_info(thread), exc_info)
