# mcp-debugger's recorder: runs a program (or pytest) and writes what the
# user's own code did as docs/recording-format.md describes.
#
#   python mcp_debugger_recorder.py --out FILE --root DIR [--include PATH]...
#       [--lines FN]... [--max-events N] [--repr] [--mechanism monitoring|settrace]
#       [--pytest] -- PROGRAM ARGS...      (with --pytest: pytest's arguments)
#
# sys.monitoring (PEP 669, Python 3.12+) lets a callback switch itself off
# for code that is not the user's (DISABLE), so library calls cost almost
# nothing; sys.settrace, below 3.12, calls us for every Python call and we
# decline to trace the frames that are not the user's.
import collections
import json
import os
import sys
import threading
import time
import types
import weakref

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR
_NEWLOCALS, _VARARGS, _VARKEYWORDS = 0x02, 0x04, 0x08
# An exception passing through more frames than this (a RecursionError) has
# its exc and unwind events kept for the first frames only: the rest repeat.
_EXC_FRAMES_KEPT = 20
_STRING_CUT = 80
_ITEMS_SHOWN = 8
_FIELDS_SHOWN = 4
_DEPTH = 2
# Events are joined and written this many at a time: one file write per
# event costs more than rendering a call's arguments.
_BATCH = 64
# Integers below this magnitude are written without going through repr.
_SMALL_INT = 1 << 62
_get_ident = threading.get_ident
_perf_counter_ns = time.perf_counter_ns

try:
    from _json import encode_basestring as _quote
except ImportError:  # a Python built without its C accelerator
    _quote = json.dumps


def _parse(argv):
    opts = {"include": [], "lines": [], "max_events": 200000, "repr": False,
            "mechanism": "settrace", "pytest": False, "out": None, "root": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return opts, argv[i + 1:]
        if a in ("--repr", "--pytest"):
            opts[a[2:]] = True
            i += 1
            continue
        value = argv[i + 1]
        if a == "--include":
            opts["include"].append(os.path.abspath(value))
        elif a == "--lines":
            opts["lines"].append(value)
        elif a == "--max-events":
            opts["max_events"] = max(int(value), 10)
        elif a in ("--out", "--root", "--mechanism"):
            opts[a[2:]] = value
        else:
            raise SystemExit("mcp-debugger recorder: unknown option " + a)
        i += 2
    raise SystemExit("mcp-debugger recorder: missing -- before the program")


class _Events:
    """The events file: everything up to max_events, then a ring of the
    last max_events/10 written after a gap event when the run ends.

    Events gather in lines; whoever appends calls spill when lines holds
    room of them. Call and return events append to lines themselves, which
    saves them a function call each (they are most of the events)."""

    def __init__(self, path, max_events):
        self.file = open(path, "w", encoding="utf-8", buffering=1 << 16)
        self.lines = []
        self.t0 = time.perf_counter_ns()
        self.left = max_events
        self.room = min(_BATCH, max_events)
        self.ring = collections.deque(maxlen=max(max_events // 10, 1))
        self.dropped = 0
        self.first_dropped = self.last_dropped = 0

    def write(self, line, call_id):
        lines = self.lines
        lines.append(line)
        if len(lines) >= self.room:
            self.spill(call_id)

    def spill(self, call_id):
        """Writes the gathered lines while the bound allows; past it
        (room 0) moves the one line just added into the ring."""
        if self.left > 0:
            self.flush()
            return
        line = self.lines.pop()
        ring = self.ring
        if len(ring) == ring.maxlen:
            _, evicted = ring[0]
            if not self.dropped:
                self.first_dropped = evicted
            self.last_dropped = evicted
            self.dropped += 1
        ring.append((line, call_id))

    def always(self, line):
        """Writes a test or end event, which no bound leaves out."""
        if self.left > 0:
            self.flush()
            self.file.write(line)
        else:
            self.ring.append((line, 0))

    def flush(self):
        lines = self.lines
        self.file.write("".join(lines))
        self.left -= len(lines)
        self.room = min(_BATCH, self.left)
        lines.clear()

    def close(self, end):
        self.flush()
        if self.dropped:
            self.file.write('{"k":"gap","t":%d,"n":%d,"first":%d,"last":%d}\n' % (
                self.now(), self.dropped, self.first_dropped, self.last_dropped))
        for line, _ in self.ring:
            self.file.write(line)
        self.file.write(end)
        self.file.close()

    def now(self):
        return _perf_counter_ns() - self.t0


class _Renderer:
    """Values as short strings, without running the program's own code
    unless use_repr: objects are read through object.__getattribute__ and
    their __dict__, which calls no property, __getattr__ or __repr__."""

    def __init__(self, use_repr):
        self.use_repr = use_repr
        self.ids = {}
        self.next_id = 1

    def __call__(self, v, depth=0):
        t = type(v)
        if t is str:
            if len(v) <= _STRING_CUT:
                return repr(v)
            r = repr(v[:_STRING_CUT])
            return r[:-1] + "\u2026" + r[-1]
        if t is int:
            if v.bit_length() > 128:
                return "int(%d bits)" % v.bit_length()
            return repr(v)
        if t is float or t is bool or v is None:
            return repr(v)
        if t is list or t is tuple or t is set or t is frozenset or t is dict:
            return self.container(v, t, depth)
        return self.other(v, t, depth)

    def quoted(self, v):
        """The value's text as a JSON string; the common scalars without
        the general path, since every call and return renders values."""
        t = type(v)
        if t is int and -_SMALL_INT < v < _SMALL_INT:
            return '"%d"' % v
        if t is str and len(v) <= _STRING_CUT:
            return _quote(repr(v))
        if t is float or t is bool or v is None:
            return '"%r"' % (v,)
        return _quote(self(v))

    def container(self, v, t, depth):
        n = len(v)
        if depth >= _DEPTH:
            return "%s(len=%d)" % (t.__name__, n)
        items = []
        for x in v:
            if len(items) == _ITEMS_SHOWN:
                break
            if t is dict:
                items.append(self(x, depth + 1) + ": " + self(v[x], depth + 1))
            else:
                items.append(self(x, depth + 1))
        if n > _ITEMS_SHOWN:
            items.append("\u2026+%d" % (n - _ITEMS_SHOWN))
        body = ", ".join(items)
        if t is list:
            return "[" + body + "]"
        if t is tuple:
            return "(" + body + ("," if n == 1 else "") + ")"
        if t is dict:
            return "{" + body + "}"
        if n == 0:
            return t.__name__ + "()"
        return ("{" + body + "}") if t is set else "frozenset({" + body + "})"

    def other(self, v, t, depth):
        if isinstance(v, types.FunctionType):
            return "<function %s>" % v.__qualname__
        if isinstance(v, type):
            return "<class %s>" % type.__getattribute__(v, "__qualname__")
        if isinstance(v, types.ModuleType):
            return "<module %s>" % object.__getattribute__(v, "__name__")
        if self.use_repr:
            try:
                r = repr(v)
                return r if len(r) <= _STRING_CUT else r[:_STRING_CUT] + "\u2026"
            except Exception:
                pass
        name = "%s#%d" % (type.__getattribute__(t, "__qualname__"), self.identity(v))
        if isinstance(v, BaseException):
            return name + "(" + ", ".join(self(a, depth + 1) for a in v.args[:_FIELDS_SHOWN]) + ")"
        if depth >= _DEPTH:
            return name
        try:
            fields = object.__getattribute__(v, "__dict__")
        except Exception:
            return name
        if type(fields) is not dict or not fields:
            return name
        shown = []
        for k in fields:
            if len(shown) == _FIELDS_SHOWN:
                shown.append("\u2026")
                break
            shown.append("%s=%s" % (k, self(fields[k], depth + 1)))
        return name + "{" + ", ".join(shown) + "}"

    def identity(self, v):
        """A number for v stable within the recording: objects that take a
        weak reference are forgotten when they die (their id is reused)."""
        key = id(v)
        n = self.ids.get(key)
        if n is not None:
            return n
        n = self.next_id
        self.next_id += 1
        try:
            weakref.finalize(v, self.ids.pop, key, None)
        except TypeError:
            pass
        self.ids[key] = n
        return n


class _Recorder:
    """What both mechanisms share: which code is the user's, and the
    events. Stacks are per thread: the open user calls, innermost last."""

    def __init__(self, opts, script):
        self.events = _Events(opts["out"], opts["max_events"])
        self.render = _Renderer(opts["repr"])
        self.quoted = self.render.quoted
        self.t0 = self.events.t0
        self.roots = [os.path.abspath(opts["root"])] + opts["include"]
        self.lines = set(opts["lines"])
        self.script_module = os.path.splitext(os.path.basename(script))[0] if script else "__main__"
        self.excluded = self.excluded_dirs()
        self.codes = {}
        self.next_id = 1
        self.stacks = {}
        self.main_thread = threading.get_ident()
        self.exc_frames = {}

    @staticmethod
    def excluded_dirs():
        import sysconfig
        dirs = {os.path.dirname(os.path.abspath(__file__))}
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            p = sysconfig.get_paths().get(key)
            if p:
                dirs.add(os.path.realpath(p))
        return tuple(d + os.sep for d in dirs)

    def is_user(self, filename):
        if not filename or filename.startswith("<"):
            return False
        path = os.path.realpath(os.path.abspath(filename))
        parts = path.split(os.sep)
        if "site-packages" in parts or "dist-packages" in parts or ".venv" in parts or "venv" in parts:
            return False
        if path.startswith(self.excluded):
            return False
        return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots)

    def code_info(self, code, frame):
        """The call's fixed part for code (name, file, first body line,
        argument names), or False for code that is not the user's."""
        info = False
        # A class body runs as code of its own: not a call anyone made.
        body_of_function = code.co_flags & _NEWLOCALS or code.co_name == "<module>"
        if body_of_function and self.is_user(code.co_filename):
            module = frame.f_globals.get("__name__", "")
            if module == "__main__":
                module = self.script_module
            qualname = getattr(code, "co_qualname", code.co_name)
            body = [ln for _, _, ln in code.co_lines() if ln and ln > code.co_firstlineno]
            n = code.co_argcount + code.co_kwonlyargcount
            n += bool(code.co_flags & _VARARGS) + bool(code.co_flags & _VARKEYWORDS)
            names = code.co_varnames[:n]
            fixed = ',"fn":%s,"file":%s,"line":%d,"args":[%s]}\n' % (
                _quote(module + "." + qualname if module else qualname),
                _quote(os.path.abspath(code.co_filename)),
                min(body) if body else code.co_firstlineno,
                ",".join("[%s,\x00]" % _quote(a) for a in names))
            info = (
                '{"k":"call","t":%d,"id":%d,"p":%d%s' + fixed.replace("%", "%%").replace("\x00", "%s"),
                names,
                bool(code.co_flags & _GENERATOR_FLAGS),
                code.co_name in self.lines or qualname in self.lines
                or (module + "." + qualname) in self.lines,
            )
        self.codes[code] = info
        return info

    def stack(self):
        th = _get_ident()
        s = self.stacks.get(th)
        if s is None:
            s = self.stacks[th] = []
        return s, th

    def call(self, frame, info):
        """Writes a call event; info[0] is the code's event text with the
        time, ids, thread and arguments left to fill in."""
        cid = self.next_id
        self.next_id = cid + 1
        th = _get_ident()
        stack = self.stacks.get(th)
        if stack is None:
            stack = self.stacks[th] = []
        parent = stack[-1] if stack else 0
        stack.append(cid)
        get = frame.f_locals.get
        quoted = self.quoted
        thread = "" if th == self.main_thread else ',"th":%d' % th
        events = self.events
        lines = events.lines
        lines.append(info[0] % ((_perf_counter_ns() - self.t0, cid, parent, thread)
                                + tuple([quoted(get(n)) for n in info[1]])))
        if len(lines) >= events.room:
            events.spill(cid)
        return cid

    def ret(self, cid, value, line):
        events = self.events
        lines = events.lines
        lines.append('{"k":"ret","t":%d,"id":%d,"v":%s,"line":%d}\n' % (
            _perf_counter_ns() - self.t0, cid, self.quoted(value), line))
        if len(lines) >= events.room:
            events.spill(cid)

    def exc(self, cid, exc, line, raised):
        """Writes an exc event, unless the exception has passed through
        _EXC_FRAMES_KEPT frames already; says whether it wrote."""
        key = id(exc)
        if raised:
            self.exc_frames.clear()
        seen = self.exc_frames.get(key, 0) + 1
        self.exc_frames[key] = seen
        if seen > _EXC_FRAMES_KEPT:
            return False
        self.events.write('{"k":"exc","t":%d,"id":%d,"type":%s,"msg":%s,"line":%d,"raised":%s}\n' % (
            self.events.now(), cid, _quote(type(exc).__qualname__), _quote(self.message(exc)), line,
            "true" if raised else "false"), cid)
        return True

    def message(self, exc):
        """The exception's message from its args, without calling its own
        __str__ (which is the program's code for its own exceptions)."""
        args = exc.args
        if len(args) == 1 and type(args[0]) is str:
            m = args[0]
            return m if len(m) <= 500 else m[:500] + "\u2026"
        if not args:
            return ""
        return ", ".join(self.render(a) for a in args)

    def catch(self, cid, exc, line):
        self.exc_frames.pop(id(exc), None)
        self.events.write('{"k":"catch","t":%d,"id":%d,"type":%s,"line":%d}\n' % (
            self.events.now(), cid, _quote(type(exc).__qualname__), line), cid)

    def unwind(self, cid, exc, line):
        if self.exc_frames.get(id(exc), 0) > _EXC_FRAMES_KEPT:
            return
        self.events.write('{"k":"unwind","t":%d,"id":%d,"type":%s,"line":%d}\n' % (
            self.events.now(), cid, _quote(type(exc).__qualname__), line), cid)

    def line(self, cid, frame, line, seen):
        """Writes the locals the previous line changed (seen holds their
        last values), then the line about to run."""
        self.changes(cid, frame, seen)
        seen["\x00line"] = line
        self.events.write('{"k":"line","t":%d,"id":%d,"line":%d}\n' % (self.events.now(), cid, line), cid)

    def changes(self, cid, frame, seen):
        at = seen.get("\x00line")
        for name, value in list(frame.f_locals.items()):
            text = self.render(value)
            if seen.get(name) != text:
                seen[name] = text
                if at is not None:
                    self.events.write('{"k":"set","t":%d,"id":%d,"line":%d,"n":%s,"v":%s}\n' % (
                        self.events.now(), cid, at, _quote(name), _quote(text)), cid)

    def test(self, name, outcome, msg, file, line):
        fields = ',"name":%s,"outcome":%s' % (_quote(name), _quote(outcome))
        if msg:
            fields += ',"msg":%s' % _quote(msg)
        if file:
            fields += ',"file":%s,"line":%d' % (_quote(file), line)
        self.events.always('{"k":"test","t":%d%s}\n' % (self.events.now(), fields))

    def start(self, argv, runtime):
        self.events.always('{"k":"start","t":0,"lang":"python","pid":%d,"version":1,"cwd":%s,"argv":[%s],"runtime":%s}\n' % (
            os.getpid(), _quote(os.getcwd()), ",".join(_quote(a) for a in argv), _quote(runtime)))

    def end(self, exit_code, exc):
        if exc is None:
            end = '{"k":"end","t":%d,"exit":%d}\n' % (self.events.now(), exit_code)
        else:
            end = '{"k":"end","t":%d,"exit":%d,"type":%s,"msg":%s}\n' % (
                self.events.now(), exit_code, _quote(type(exc).__qualname__), _quote(self.message(exc)))
        self.events.close(end)


def _settrace(rec):
    """Traces with sys.settrace: a local tracer for each user call, with
    line events off except where lines were asked for or an exception is
    being handled (the first line after it says where it was caught).

    Most calls neither yield, nor have their lines asked for, nor see an
    exception: they share one local tracer, plain, which finds the call
    on the thread's stack when it returns (as the monitoring callbacks
    do), since making a tracer of its own for each call cost more than
    writing its events. plain hands a call that sees an exception to a
    tracer of its own. global_trace and plain write the call and return
    events themselves, without a method call each."""
    codes = rec.codes
    suspended = {}
    stacks = rec.stacks
    main_thread = rec.main_thread
    main_stack = stacks[main_thread] = []
    events = rec.events
    lines = events.lines
    quoted = rec.quoted
    t0 = rec.t0

    def global_trace(frame, event, arg):
        code = frame.f_code
        info = codes.get(code)
        if info is None:
            info = rec.code_info(code, frame)
        if info is False:
            return None
        try:
            th = _get_ident()
            if th == main_thread:
                stack = main_stack
                thread = ""
            else:
                stack = stacks.get(th)
                if stack is None:
                    stack = stacks[th] = []
                thread = ',"th":%d' % th
            cid = suspended.pop(id(frame), None) if info[2] else None
            if cid is None:
                cid = rec.next_id
                rec.next_id = cid + 1
                names = info[1]
                fill = (_perf_counter_ns() - t0, cid, stack[-1] if stack else 0, thread)
                if names:
                    get = frame.f_locals.get
                    fill += tuple([quoted(get(n)) for n in names])
                lines.append(info[0] % fill)
                if len(lines) >= events.room:
                    events.spill(cid)
            stack.append(cid)
            if info[2] or info[3]:
                return tracer(frame, info[2], info[3], stack, cid)
            frame.f_trace_lines = False
            return plain
        except Exception:
            return None

    def write_ret(cid, arg, lineno):
        """Writes call cid's return of arg from lineno."""
        t = type(arg)
        if t is int and -_SMALL_INT < arg < _SMALL_INT:
            value = '"%d"' % arg
        else:
            value = quoted(arg)
        lines.append('{"k":"ret","t":%d,"id":%d,"v":%s,"line":%d}\n' % (
            _perf_counter_ns() - t0, cid, value, lineno))
        if len(lines) >= events.room:
            events.spill(cid)

    def plain(frame, event, arg):
        try:
            th = _get_ident()
            stack = main_stack if th == main_thread else stacks[th]
            if event == "return":
                # write_ret's body, inlined: this runs for nearly every
                # call, and a call more per event costs ~0.1 µs.
                cid = stack.pop()
                t = type(arg)
                if t is int and -_SMALL_INT < arg < _SMALL_INT:
                    value = '"%d"' % arg
                else:
                    value = quoted(arg)
                lines.append('{"k":"ret","t":%d,"id":%d,"v":%s,"line":%d}\n' % (
                    _perf_counter_ns() - t0, cid, value, frame.f_lineno))
                if len(lines) >= events.room:
                    events.spill(cid)
            elif event == "exception":
                # Python keeps what a local tracer returns as the frame's
                # tracer from then on.
                return tracer(frame, False, False, stack, stack[-1])(frame, event, arg)
        except Exception:
            pass
        return plain

    def tracer(frame, generator, wants_lines, stack, cid):
        """The local tracer of call cid, running frame."""
        seen = {} if wants_lines else None
        frame.f_trace_lines = wants_lines
        pending = None

        def local(frame, event, arg):
            nonlocal pending
            try:
                if event == "return":
                    if stack and stack[-1] == cid:
                        stack.pop()
                    if wants_lines:
                        rec.changes(cid, frame, seen)
                    if pending is not None:
                        rec.unwind(cid, pending, frame.f_lineno)
                    elif generator:
                        suspended[id(frame)] = cid
                    else:
                        write_ret(cid, arg, frame.f_lineno)
                elif event == "line":
                    if pending is not None:
                        rec.catch(cid, pending, frame.f_lineno)
                        pending = None
                        frame.f_trace_lines = wants_lines
                    if wants_lines:
                        rec.line(cid, frame, frame.f_lineno, seen)
                elif event == "exception":
                    exc = arg[1]
                    tb = arg[2]
                    rec.exc(cid, exc, frame.f_lineno, tb is None or tb.tb_next is None)
                    pending = exc
                    frame.f_trace_lines = True
            except Exception:
                pass
            return local

        return local

    threading.settrace(global_trace)
    sys.settrace(global_trace)

    def stop():
        sys.settrace(None)
        threading.settrace(None)

    return stop


def _monitoring(rec):
    """Traces with sys.monitoring: callbacks for code that is not the
    user's return DISABLE where the event allows it, so Python stops
    calling them for that code."""
    mon = sys.monitoring
    ev = mon.events
    tool = next(t for t in (mon.PROFILER_ID, 3, 4, 5) if mon.get_tool(t) is None)
    mon.use_tool_id(tool, "mcp-debugger-recorder")
    DISABLE = mon.DISABLE
    codes = rec.codes
    getframe = sys._getframe
    stacks = rec.stacks
    get_ident = _get_ident
    suspended = {}
    seen_by_call = {}
    catching = {}

    def user(code):
        info = codes.get(code)
        if info is None:
            info = rec.code_info(code, getframe(2))
            if info is not False and info[3]:
                mon.set_local_events(tool, code, ev.LINE)
        return info

    # Every callback catches what it raises, which would surface in the
    # program, except a RecursionError: the program is at its recursion
    # limit, and swallowing the error there can leave a recursion through
    # generators running for ever (seen on 3.12). It reaches the program as
    # it would have a frame later; main() leaves our frame out of the
    # traceback it prints.
    def on_start(code, offset):
        try:
            info = codes.get(code)
            if info is None:
                info = user(code)
            if info is False:
                return DISABLE
            cid = rec.call(getframe(1), info)
            if info[3]:
                seen_by_call[cid] = {}
        except RecursionError:
            raise
        except Exception:
            pass

    def on_resume(code, offset):
        info = codes.get(code)
        if not info:
            return DISABLE
        try:
            cid = suspended.pop(id(getframe(1)), None)
            if cid is not None:
                rec.stack()[0].append(cid)
        except RecursionError:
            raise
        except Exception:
            pass

    def on_return(code, offset, value):
        info = codes.get(code)
        if not info:
            return DISABLE
        try:
            stack = stacks.get(get_ident())
            if not stack:
                return
            cid = stack.pop()
            frame = getframe(1)
            if info[3]:
                rec.changes(cid, frame, seen_by_call.pop(cid, {}))
            if not info[2]:
                rec.ret(cid, value, frame.f_lineno)
        except RecursionError:
            raise
        except Exception:
            pass

    def on_yield(code, offset, value):
        info = codes.get(code)
        if not info:
            return DISABLE
        try:
            stack, _ = rec.stack()
            if stack:
                suspended[id(getframe(1))] = stack.pop()
        except RecursionError:
            raise
        except Exception:
            pass

    def on_raise(code, offset, exc):
        if not codes.get(code):
            return
        try:
            stack, _ = rec.stack()
            if stack:
                tb = exc.__traceback__
                rec.exc(stack[-1], exc, getframe(1).f_lineno, tb is None or tb.tb_next is None)
        except RecursionError:
            raise
        except Exception:
            pass

    def on_handled(code, offset, exc):
        # The handler's first instructions belong to the try's line: the
        # catch is written at the next LINE event, where settrace sees it.
        if not codes.get(code):
            return
        try:
            stack, _ = rec.stack()
            if stack:
                catching[stack[-1]] = exc
                mon.set_local_events(tool, code, ev.LINE)
        except RecursionError:
            raise
        except Exception:
            pass

    def on_unwind(code, offset, exc):
        info = codes.get(code)
        if not info:
            return
        try:
            stack, _ = rec.stack()
            if not stack:
                return
            cid = stack.pop()
            frame = getframe(1)
            if info[3]:
                rec.changes(cid, frame, seen_by_call.pop(cid, {}))
            rec.unwind(cid, exc, frame.f_lineno)
        except RecursionError:
            raise
        except Exception:
            pass

    def on_line(code, line):
        try:
            stack, _ = rec.stack()
            if not stack:
                return
            cid = stack[-1]
            exc = catching.pop(cid, None)
            if exc is not None:
                rec.catch(cid, exc, line)
                if not codes[code][3]:
                    mon.set_local_events(tool, code, 0)
                    return
            if codes[code][3]:
                rec.line(cid, getframe(1), line, seen_by_call.setdefault(cid, {}))
        except RecursionError:
            raise
        except Exception:
            pass

    for event, callback in ((ev.PY_START, on_start), (ev.PY_RESUME, on_resume), (ev.PY_RETURN, on_return),
                            (ev.PY_YIELD, on_yield), (ev.RAISE, on_raise), (ev.EXCEPTION_HANDLED, on_handled),
                            (ev.PY_UNWIND, on_unwind), (ev.LINE, on_line)):
        mon.register_callback(tool, event, callback)
    mon.set_events(tool, ev.PY_START | ev.PY_RESUME | ev.PY_RETURN | ev.PY_YIELD | ev.RAISE
                   | ev.EXCEPTION_HANDLED | ev.PY_UNWIND)

    def stop():
        mon.set_events(tool, 0)
        mon.free_tool_id(tool)

    return stop


class _TestEvents:
    """A pytest plugin writing a test event per test that ends."""

    def __init__(self, rec):
        self.rec = rec

    def pytest_runtest_logreport(self, report):
        if report.when != "call" and not (report.failed or report.skipped):
            return
        outcome = report.outcome
        if report.failed and report.when != "call":
            outcome = "error"
        msg, file, line = "", "", 0
        crash = getattr(report.longrepr, "reprcrash", None)
        if report.failed and crash is not None:
            msg, file, line = crash.message, crash.path, crash.lineno
        elif report.skipped and isinstance(report.longrepr, tuple):
            msg = str(report.longrepr[2])
        self.rec.test(report.nodeid, outcome, msg, file, line)


def main():
    opts, rest = _parse(sys.argv[1:])
    script = None if opts["pytest"] else os.path.abspath(rest[0])
    rec = _Recorder(opts, script)
    runtime = "Python %d.%d.%d (%s)" % (sys.version_info[:3] + (sys.executable,))
    rec.start(rest, runtime)
    if opts["pytest"]:
        import pytest
        sys.argv = ["pytest"] + rest
        sys.path[0] = os.getcwd()
        plugin = _TestEvents(rec)
    else:
        import runpy
        sys.argv = [script] + rest[1:]
        sys.path[0] = os.path.dirname(script)
    stop = _monitoring(rec) if opts["mechanism"] == "monitoring" else _settrace(rec)
    exit_code, uncaught = 0, None
    try:
        if opts["pytest"]:
            exit_code = int(pytest.main(rest, plugins=[plugin]))
        else:
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        exit_code = code if isinstance(code, int) else (0 if code is None else 1)
        if code is not None and not isinstance(code, int):
            print(code, file=sys.stderr)
    except BaseException as e:
        import traceback
        tb = e.__traceback__
        while tb is not None and not rec.is_user(tb.tb_frame.f_code.co_filename):
            tb = tb.tb_next
        report = traceback.TracebackException(type(e), e, tb)
        report.stack = traceback.StackSummary.from_list(
            [f for f in report.stack if f.filename != os.path.abspath(__file__)])
        print("".join(report.format()), end="", file=sys.stderr)
        exit_code, uncaught = 1, e
    stop()
    sys.stdout.flush()
    rec.end(exit_code, uncaught)
    sys.exit(exit_code)


if __name__ == "__main__":
    main()
