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
    if sys.gettrace() is not None or call.excinfo is None:
        # Still traced: debugpy has stopped on this failure already.
        return
    _stop_post_mortem((call.excinfo.type, call.excinfo.value, call.excinfo.tb))


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
