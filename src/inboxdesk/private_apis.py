"""Every private API of a pinned library that inboxdesk still uses, each behind one
function here and nowhere else. tests/test_private_apis.py fails when a pinned
library changes one of them, so that an upgrade says where to look.

- Textual keeps an app's crash only in `App._exception`; the command line reports it
  in one line and saves the traceback without local values (cli/app_commands.py).
- httpx imports its own command line (`httpx._main`: click, rich's syntax and
  progress, pygments) whenever those are installed, as ours are: 70 ms of every start
  for a tool inboxdesk never runs. An entry of None in `sys.modules` makes that import
  fail as if they were missing, and httpx leaves its `main` out (entry.py).
- Textual reparses every stylesheet and restyles the whole app when a mode's first
  screen is entered (`App._init_mode`: a new screen's `_css_update_count` differs from
  the app's), which pushing a screen never does: a view's first opening cost that. A
  view's screen is styled from the stylesheet as it stands when it mounts, so it is
  counted as up to date when built (tui/modes.py); a later change of theme or CSS
  still restyles it when its mode is entered again.
- Textual lays a mode's screen out again whenever the mode is switched to
  (`Screen._screen_resized`, called by `App.switch_mode`), even at the size it was last
  laid out at with no layout asked since. A view's screen is laid out then only when
  its size changed or a layout is pending (`_size`, `_layout_required`); a pending one
  is otherwise made at the next frame, as for a shown screen (tui/screens/shown_again.py;
  the App's own screen too, tui/app.py).
- Textual lays a screen out a second time after every layout that sized a widget anew
  (`Screen._refresh_layout` sets each widget's `virtual_size`, a reactive that asks
  for a layout), and after the layout of a screen first shown (`_on_screen_resume`
  leaves `_layout_required` set): the second finds the sizes the first gave, unless a
  scrollbar came or went, which changes the room inside. A screen made with
  `lays_out_once` skips that echo, and is laid out again only for a scrollbar or for
  what asked for a layout after it began (tui/inbox/screen.py, tui/app.py).
- Textual's header (`textual.widgets._header`) sets its title with `Static.update`,
  which lays the whole screen out again each time the app's or the screen's title or
  sub-title changes, though the title is one line, never wrapped, as wide as the
  header. The app's header composes its title as a `HeaderTitle` redrawn in place
  (tui/widgets/app_header.py).
- Textual draws a frame of the top screen (`Compositor.render_update`) at every
  refresh, headless or not; a headless app shows it to no one. The tests' headless
  apps draw only what changed since they last looked, when a test looks
  (`draw_headless_frames_when_looked_at`, `draw_frame`; tests/waiting.py), and as
  they shut down (`App._shutdown`), so that the last state's render error is raised.
- Textual parses every stylesheet anew for each app (`Stylesheet._parse_rules`, cached
  per stylesheet): a test run's apps parsed the same CSS again each, some 30 ms of an
  inbox's 400 ms start. The tests' apps share what was parsed from the same CSS
  with the same variables (`share_parsed_css`); an app of the command line starts
  once per process and parses as Textual does.
- Textual finds a message's handlers (`MessagePump._get_dispatch_methods`) by walking
  the pump's and the message's MROs for every message: some 12 µs of each, an idle
  event or a callback to every widget included. The app finds them from a plan made
  once per pump class, handler name and message class (`find_handlers_once_per_class`).
- Textual counts a callback's parameters with `inspect.signature`
  (`textual._callback._count_parameters`, some 17 µs), once per callable it is given,
  and `call_later` gives it a new partial each time. The app counts a plain function's,
  or a method's, from its code (`count_parameters_from_code`).
- Textual's Pilot waits after each key, click and pause until the process has used
  almost no CPU for a 20 ms slice (`textual._wait.wait_for_idle`, imported by
  `textual.app` for `_press_keys` and by `textual.pilot`): three such waits a key, at
  least 60 ms, most of it idle. The tests' Pilot waits instead until no message of
  the app or its screen's widgets is queued (`MessagePump._message_queue`,
  `_next_callbacks`: `pilot_waits_for_messages`) and the app holds no updates
  (`App._batch_count`: 50 ms after a mode switch, which the idle slices outlasted);
  what the app then does on its own (a request, a worker) a test awaits as a
  condition (tests/waiting.py `until`).
- textual-serve builds its aiohttp routes in `Server._make_app`; `inboxdesk demo --web`
  runs them on a socket it bound itself (cli/web.py).
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def skip_httpx_command_line() -> None:
    """httpx without its command line (its `main`), imported before httpx itself."""
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def styled_as_app(screen: Any, app: Any) -> None:
    screen._css_update_count = app._css_update_count


def lays_out_when_needed(screen_class: C) -> C:
    """The screen class, laid out when shown again only if its size changed or a layout
    is pending."""
    resized = screen_class._screen_resized  # type: ignore[attr-defined]

    def _screen_resized(screen: Any, size: Any) -> None:
        if screen._size == size and not screen._layout_required:
            return
        resized(screen, size)

    screen_class._screen_resized = _screen_resized  # type: ignore[attr-defined]
    return screen_class


def lays_out_once(screen_class: C) -> C:
    """The screen class, whose layout is not followed by a second one that would find
    every size the same: the layout requests its own sizing made are dropped, unless
    a widget's scrollbar came or went."""
    from textual._time import get_time

    refresh_layout = screen_class._refresh_layout  # type: ignore[attr-defined]

    def _refresh_layout(screen: Any, size: Any = None, scroll: bool = False) -> None:
        if scroll and not screen._layout_widgets:
            refresh_layout(screen, size, scroll)  # a scroll: nothing is sized
            return
        screen._laid_out_at = get_time()
        widgets = _placed(screen)
        for widget in widgets:
            if widget._layout_required:
                _arrange_anew(widget)  # laid out by this layout, not by one after it
        bars = [_scrollbars(widget) for widget in widgets]
        refresh_layout(screen, size, scroll)
        if [_scrollbars(widget) for widget in widgets] != bars:
            return  # the room inside a widget changed: laid out again, as Textual does
        for widget in _placed(screen):
            widget._layout_required = False
        screen._layout_required = False

    on_layout = screen_class._on_layout  # type: ignore[attr-defined]

    async def _on_layout(screen: Any, message: Any) -> None:
        if message.time < getattr(screen, "_laid_out_at", float("-inf")):
            # Asked before the last layout began, which placed that widget as it is now.
            message.stop()
            message.prevent_default()
            return
        await on_layout(screen, message)

    screen_class._refresh_layout = _refresh_layout  # type: ignore[attr-defined]
    screen_class._on_layout = _on_layout  # type: ignore[attr-defined]
    return screen_class


def _placed(screen: Any) -> list[Any]:
    """The screen's widgets, their scrollbars included (not children in the DOM)."""
    from textual.widget import Widget

    widgets = [widget for widget in screen.walk_children(Widget) if widget._is_mounted]
    return widgets + [bar for widget in widgets for bar in widget._get_virtual_dom()]


def _arrange_anew(widget: Any) -> None:
    """What Textual does as a widget that asked for a layout asks the screen for it:
    its containers arrange their children anew (`Widget._check_refresh`)."""
    from textual.widget import Widget

    for ancestor in widget.ancestors:
        if not isinstance(ancestor, Widget):
            break
        ancestor._clear_arrangement_cache()
        ancestor._layout_updates += 1
        if not ancestor.styles.auto_dimensions:
            break


def _scrollbars(widget: Any) -> tuple[bool, bool]:
    return widget.show_vertical_scrollbar, widget.show_horizontal_scrollbar


def header_parts_title_in_place(parts: Iterable[Any]) -> Iterator[Any]:
    """A header's composed parts, its `HeaderTitle` replaced by one that is redrawn in
    place once laid out: one line high, whatever the title."""
    from textual.widgets._header import HeaderTitle

    for part in parts:
        yield _title_in_place()() if type(part) is HeaderTitle else part


@functools.cache
def _title_in_place() -> type[Any]:
    from textual.widgets._header import HeaderTitle

    class TitleInPlace(HeaderTitle):
        def update(self, content: Any = "", *, layout: bool = True) -> None:
            # Laid out with its first title; after that it is one line high whatever
            # the title says (text-wrap: nowrap), so a new title is only redrawn.
            super().update(content, layout=layout and self.size.height != 1)

    return TitleInPlace


def app_crash(app: Any) -> BaseException | None:
    error = getattr(app, "_exception", None)
    return error if isinstance(error, BaseException) else None


def serve_routes(server: Any) -> Any:
    return server._make_app()


def draw_headless_frames_when_looked_at() -> None:
    """From now on a headless app of this process draws its screen only at `draw_frame`
    and as it shuts down: what changed meanwhile is drawn then, in one frame. An app on
    a terminal, and a screenshot (a full frame), draw as Textual does."""
    from textual._compositor import Compositor
    from textual._context import active_app

    if _textual_render_update:
        return
    render_update = Compositor.render_update
    _textual_render_update.append(render_update)

    def when_looked_at(
        compositor: Any, full: bool = False, screen_stack: Any = None, simplify: bool = False
    ) -> Any:
        app = active_app.get(None)
        if full or app is None or not app.is_headless:
            return render_update(compositor, full, screen_stack, simplify)
        return None  # what changed stays marked, for `draw_frame`

    Compositor.render_update = when_looked_at  # type: ignore[method-assign,assignment]

    from textual.app import App

    shutdown = App._shutdown

    async def drawn_then_shut(app: Any) -> None:
        # The last state is drawn, as a frame would have drawn it before the test ended:
        # a render error there ends the app with it, and `run_test` raises it.
        if app._screen_stack and app._exception is None:
            try:
                draw_frame(app)
            except Exception as error:
                app._handle_exception(error)
        await shutdown(app)

    App._shutdown = drawn_then_shut  # type: ignore[method-assign,assignment]


def draw_frame(app: Any) -> bool:
    """A headless app's screen drawn where it changed since its last frame, as its next
    frame would have drawn it (nothing to do unless frames are drawn when looked at).
    Whether that was the whole screen."""
    from textual._compositor import LayoutUpdate

    if _textual_render_update and app.is_running and app.is_headless and not app._batch_count:
        screen = app.screen
        drawn = _textual_render_update[0](screen._compositor, screen_stack=app._background_screens)
        return isinstance(drawn, LayoutUpdate)
    return False


def pilot_waits_for_messages() -> None:
    """From now on Pilot, after a key, a click or a pause, waits until the app holds no
    updates and it and the widgets of its screen have no message queued, twice
    running, rather than for a slice of the clock without CPU; a handler still running
    then is waited for by Pilot's own barrier (`_wait_for_screen`, after the keys and in
    `pause`). Up to `max_sleep`, as Textual's wait."""
    import asyncio
    import time

    import textual.app
    import textual.pilot
    from textual._context import active_app

    async def handled(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
        app = active_app.get(None)
        deadline = time.monotonic() + max_sleep
        quiet = 0
        while quiet < 2 and time.monotonic() < deadline:
            if app is not None and app._batch_count:
                # Updates held (a mode switch holds them 50 ms): what they hold is not
                # laid out or drawn yet. Waited for without spinning.
                await asyncio.sleep(0.005)
                quiet = 0
                continue
            await asyncio.sleep(0)
            quiet = quiet + 1 if app is None or _handled_all(app) else 0

    textual.app.wait_for_idle = handled  # type: ignore[attr-defined]
    textual.pilot.wait_for_idle = handled  # type: ignore[attr-defined]


def _handled_all(app: Any) -> bool:
    """Whether the app and every widget of its screen have taken every message sent to
    them and run their callbacks."""
    try:
        pumps = [app, *app.screen.walk_children(with_self=True)]
    except Exception:  # no screen (starting, or shut)
        pumps = [app]
    return not any(not p._message_queue.empty() or p._next_callbacks for p in pumps)


def layout_pending(screen: Any) -> bool:
    """Whether the screen has a layout still to make: asked for (`_layout_required`), or
    held back with all of the app's updates (`_batch_count`: for 50 ms after each mode
    switch, `App.delay_update`)."""
    return bool(screen._layout_required or screen.app._batch_count)


def share_parsed_css() -> None:
    """From now on the apps of this process share the rules parsed from one stylesheet
    source (its text, place, scope and rank) under the same CSS variables (the theme):
    parsed once, by Textual, and reused by every app after. Parsed rules are read, never
    changed, by the apps that apply them (Textual shares them between its own parses)."""
    from textual.css.stylesheet import Stylesheet

    if _textual_parse_rules:
        return
    parse_rules = Stylesheet._parse_rules
    _textual_parse_rules.append(parse_rules)
    parsed: dict[tuple[object, ...], Any] = {}

    def shared(
        stylesheet: Any,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        variables = tuple(stylesheet._variables.items())
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
        rules = parsed.get(key)
        if rules is None:
            rules = parse_rules(stylesheet, css, read_from, is_default_rules, tie_breaker, scope)
            parsed[key] = rules
        return rules

    Stylesheet._parse_rules = shared  # type: ignore[method-assign,assignment]


# Textual's own `Stylesheet._parse_rules`, once replaced.
_textual_parse_rules: list[Any] = []

# Textual's own `Compositor.render_update`, once replaced.
_textual_render_update: list[Any] = []


def find_handlers_once_per_class() -> None:
    """From now on a message pump finds the handlers of a message (Textual's
    `MessagePump._get_dispatch_methods`) from a plan made once per pump class, handler
    name and message class, in place of walking both classes' MROs for every message: the
    same handlers, in the same order, each bound anew, with `prevent_default` honoured
    before each class as Textual does and `@on` selectors matched against each message.
    A class's handlers are read when it first receives that message, so a handler must
    be set on a class before then, as Textual's metaclass and class bodies do (a class
    made at run time is a class of its own)."""
    from textual.message_pump import MessagePump

    if _textual_get_dispatch_methods:
        return
    _textual_get_dispatch_methods.append(MessagePump._get_dispatch_methods)
    _dispatch_methods.__wrapped__ = MessagePump._get_dispatch_methods  # type: ignore[attr-defined]
    MessagePump._get_dispatch_methods = _dispatch_methods  # type: ignore[method-assign,assignment]


# Textual's own `MessagePump._get_dispatch_methods`, once replaced.
_textual_get_dispatch_methods: list[Any] = []

# One class's handlers of a message: the class, its `@on` handlers of that message
# (method, selectors), and its handler by name (`_on_x`, else `on_x`) unless decorated.
_Handlers = tuple[type, tuple[tuple[Any, Any], ...], Any]

# The attribute of a pump class, in its own `__dict__`, that holds the plan of each
# (handler name, message class): its classes that handle that message, in MRO order.
# Kept on the class, a plan goes with it (a plan holds the class: a weak mapping from
# the class would never let it go).
_PLANS = "_inboxdesk_handler_plans"


def _dispatch_methods(pump: Any, method_name: str, message: Any) -> Iterable[tuple[type, Any]]:
    pump_class = type(pump)
    by_message = pump_class.__dict__.get(_PLANS)
    if by_message is None:
        by_message = {}
        setattr(pump_class, _PLANS, by_message)
    key = (method_name, type(message))
    plan = by_message.get(key)
    if plan is None:
        plan = by_message[key] = _plan(pump_class, method_name, type(message))
    if not plan:
        return ()
    if len(plan) == 1 and not plan[0][1]:
        # One handler by name: bound now, as Textual's generator would at its first step.
        if message._no_default_action:
            return ()
        cls, _, method = plan[0]
        return ((cls, method.__get__(pump, cls)),)
    return _bound(pump, plan, message)


def _plan(pump_class: type, method_name: str, message_class: type) -> tuple[_Handlers, ...]:
    """What Textual's `_get_dispatch_methods` finds in the classes, before any message."""
    from textual.message import Message

    message_mro = [type_ for type_ in message_class.__mro__ if issubclass(type_, Message)]
    plan: list[_Handlers] = []
    for cls in pump_class.__mro__:
        decorated_handlers = cls.__dict__.get("_decorated_handlers")
        decorated: list[tuple[Any, Any]] = []
        if decorated_handlers:
            for message_type in message_mro:
                decorated.extend(decorated_handlers.get(message_type, []))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None  # decorated: called as such, never by its name
        if decorated or method is not None:
            plan.append((cls, tuple(decorated), method))
    return tuple(plan)


def _bound(pump: Any, plan: tuple[_Handlers, ...], message: Any) -> Iterator[tuple[type, Any]]:
    """Textual's walk over the planned classes: a handler that prevents the default stops
    the classes after its own; an `@on` handler is called once, where its selectors match."""
    methods_dispatched: set[Any] = set()
    for cls, decorated, named in plan:
        if message._no_default_action:
            break
        for method, selectors in decorated:
            if method in methods_dispatched:
                continue
            if not selectors:
                yield cls, method.__get__(pump, cls)
                methods_dispatched.add(method)
            else:
                if not message._sender:
                    continue
                from textual._on import OnNoWidget
                from textual.css.match import match
                from textual.widget import Widget

                for attribute, selector in selectors.items():
                    node = getattr(message, attribute)
                    if node is None:
                        break
                    if not isinstance(node, Widget):
                        raise OnNoWidget(
                            f"on decorator can't match against {attribute!r} as it is not a widget."
                        )
                    if not match(selector, node):
                        break
                else:
                    yield cls, method.__get__(pump, cls)
                    methods_dispatched.add(method)
        if named is not None:
            yield cls, named.__get__(pump, cls)


def count_parameters_from_code() -> None:
    """From now on Textual counts the parameters of a plain function or of a method bound
    to one, before it calls it back (`textual._callback._count_parameters`), from its
    code: what `inspect.signature` finds for a function that names no other signature
    (no `__wrapped__`, `__signature__` or the like: nothing in its `__dict__`), in a
    microsecond in place of some 17. Textual keeps a count on the callable it was given,
    and `call_later` gives it a new partial each time: each callback was counted anew
    (a pause's callback to every widget, a scroll, a focus, a mount)."""
    from inspect import CO_VARARGS, CO_VARKEYWORDS

    import textual._callback

    if _textual_count_parameters:
        return
    count = textual._callback._count_parameters
    _textual_count_parameters.append(count)

    def plain(func: Any) -> bool:
        return type(func) is types.FunctionType and not func.__dict__

    def in_code(code: types.CodeType) -> int:
        flags = code.co_flags
        return (
            code.co_argcount  # positional-only ones included
            + code.co_kwonlyargcount
            + bool(flags & CO_VARARGS)
            + bool(flags & CO_VARKEYWORDS)
        )

    def from_code(func: Any) -> int:
        if plain(func):
            return in_code(func.__code__)
        if type(func) is types.MethodType and plain(func.__func__):
            code = func.__func__.__code__
            if code.co_argcount:
                return in_code(code) - 1  # the first, bound
        return int(count(func))

    from_code.__wrapped__ = count  # type: ignore[attr-defined]
    textual._callback._count_parameters = from_code


# Textual's own `textual._callback._count_parameters`, once replaced.
_textual_count_parameters: list[Any] = []
