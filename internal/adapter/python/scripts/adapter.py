# mcp-debugger: runs debugpy's adapter as "python -m debugpy.adapter" would,
# first making every TCP socket it accepts or connects TCP_NODELAY when
# argv[1] is "nodelay" (see nodelay.go). Passed with "python -c"; this
# process runs nothing but debugpy's adapter, so every socket is debugpy's.
import sys


def _mcp_debugger_adapter():
    import runpy
    import socket

    mode = sys.argv.pop(1) if len(sys.argv) > 1 else ""
    # "-c" puts the working directory first on sys.path, where a user's
    # module could shadow one that debugpy imports.
    if sys.path and sys.path[0] == "":
        del sys.path[0]

    if mode == "nodelay":

        def nodelay(sock):
            try:
                if sock.family in (socket.AF_INET, socket.AF_INET6):
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass

        accept = socket.socket.accept
        connect = socket.socket.connect

        def accept_nodelay(self):
            conn, addr = accept(self)
            nodelay(conn)
            return conn, addr

        def connect_nodelay(self, address):
            result = connect(self, address)
            nodelay(self)
            return result

        socket.socket.accept = accept_nodelay
        socket.socket.connect = connect_nodelay

    runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)


_mcp_debugger_adapter()
