# mcp-debugger: starts a debuggee exactly as debugpy's launcher would
# ("python <debugpy dir> --connect HOST:PORT ... program args"), with
# TCP_NODELAY on the one socket that connects to debugpy's adapter, and on
# nothing else: not on the program's own sockets (see nodelay.go).
#
# debugpy hides from the user's stack (and never traces) files whose name
# ends in "debugpy_launcher.py", which is why this one is so named: its
# frame stays at the bottom of the main thread while the program runs.
import sys


def _mcp_debugger_start():
    import os
    import socket

    # The program's standard input, when mcp-debugger was given one: the
    # launcher passed on the adapter's, which is no input of the program's.
    stdin_path = os.environ.pop("MCP_DEBUGGER_STDIN", None)
    if stdin_path:
        fd = os.open(stdin_path, os.O_RDONLY)
        if fd != 0:
            os.dup2(fd, 0)
            os.close(fd)
        if sys.stdin is None or sys.stdin.closed:
            sys.stdin = open(0, "r", closefd=False)

    argv = sys.argv[1:]
    # For Python 3.11+ debugpy's launcher appends "-X frozen_modules=off"
    # after this script's name, where it is a plain argument; the
    # interpreter already had it from before the script.
    if argv[:2] == ["-X", "frozen_modules=off"]:
        del argv[:2]
    if (
        len(argv) < 3
        or argv[1] != "--connect"
        or not os.path.isfile(os.path.join(argv[0], "__main__.py"))
    ):
        # Not a start we know (noDebug, or another debugpy's command line):
        # run the command line as the interpreter would have. Windows has
        # no exec: its os.execv starts a new process and ends this one,
        # which the launcher would take for the program's end.
        if os.name == "nt":
            import subprocess

            sys.exit(subprocess.call([sys.executable] + argv))
        os.execv(sys.executable, [sys.executable] + argv)

    host, sep, port = argv[2].rpartition(":")
    if not sep:
        host = "127.0.0.1"
    target = (host, int(port))

    cls = socket.socket
    own = cls.__dict__.get("connect")
    inherited = cls.connect

    def restore():
        if own is None:
            del cls.connect
        else:
            cls.connect = own

    def connect(self, address):
        if not (isinstance(address, tuple) and tuple(address[:2]) == target):
            return inherited(self, address)
        # One shot: pydevd connects once, before the program runs; from here
        # on socket.socket is what the program would have had.
        restore()
        inherited(self, address)
        try:
            self.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        _wake_suspended_threads()

    cls.connect = connect

    # Look exactly like "python <debugpy dir> ...": argv[0] is debugpy's
    # directory (runpy puts it first on sys.path, where this script's
    # directory was), and debugpy sets sys.argv for the program itself.
    sys.argv[:] = argv
    here = os.path.dirname(os.path.realpath(__file__))
    if sys.path and sys.path[0] and os.path.realpath(sys.path[0]) == here:
        del sys.path[0]
    return argv[0]


def _wake_suspended_threads():
    # A thread pydevd holds at a stop polls for work every 10 ms
    # (time.sleep(0.01) in PyDB._do_wait_suspend), so every variables,
    # evaluate, step and continue request waits up to 10 ms for that poll.
    # pydevd.py's own "time" becomes one whose short sleeps end as soon as
    # work is posted for a thread, or a thread is resumed. Only pydevd's
    # module sees it; the program's time module is untouched. pydevd is
    # imported by the time it connects to the adapter, which is when this
    # runs; with another pydevd layout it does nothing.
    import threading

    pydevd = sys.modules.get("pydevd")
    api = sys.modules.get("_pydevd_bundle.pydevd_api")
    real_time = getattr(pydevd, "time", None)
    py_db_class = getattr(pydevd, "PyDB", None)
    api_class = getattr(api, "PyDevdAPI", None)
    post = getattr(py_db_class, "post_internal_command", None)
    resume = getattr(api_class, "request_resume_thread", None)
    if real_time is None or post is None or resume is None:
        return
    work = threading.Event()

    def post_internal_command(self, int_cmd, thread_id):
        post(self, int_cmd, thread_id)
        work.set()

    def request_resume_thread(self, thread_id):
        resume(self, thread_id)
        work.set()

    class WakingTime(object):
        def __getattr__(self, name):
            return getattr(real_time, name)

        def sleep(self, seconds):
            if seconds > 0.01:
                return real_time.sleep(seconds)
            if work.wait(seconds):
                work.clear()

    py_db_class.post_internal_command = post_internal_command
    api_class.request_resume_thread = request_resume_thread
    pydevd.time = WakingTime()


_mcp_debugger_debugpy = _mcp_debugger_start()
del _mcp_debugger_start
import runpy  # noqa: E402

runpy.run_path(_mcp_debugger_debugpy, run_name="__main__")
