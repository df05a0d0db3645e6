"""The private APIs behind src/inboxdesk/private_apis.py still exist in the pinned
libraries: each test fails, naming the library, when an upgrade changes one."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from textual.app import App, ComposeResult
from textual.geometry import Region

from inboxdesk.private_apis import (
    app_crash,
    count_parameters_from_code,
    draw_frame,
    find_handlers_once_per_class,
    header_parts_title_in_place,
    layout_pending,
    lays_out_once,
    lays_out_when_needed,
    serve_routes,
    share_parsed_css,
    styled_as_app,
)
from tests.waiting import until


def test_textual_restyles_the_app_for_a_mode_screen_whose_css_count_differs() -> None:
    from textual.screen import Screen

    app: App[None] = App()
    screen: Screen[None] = Screen()
    source = inspect.getsource(App._init_mode)
    assert "screen._css_update_count != self._css_update_count" in source, "_init_mode changed"
    assert "self.refresh_css()" in source, "_init_mode no longer restyles the app"
    styled_as_app(screen, app)
    assert screen._css_update_count == app._css_update_count


def test_textual_lays_a_mode_screen_out_on_every_switch_through_screen_resized() -> None:
    from textual.screen import Screen

    assert "self.screen._screen_resized(self.size)" in inspect.getsource(App.switch_mode)
    resized = inspect.getsource(Screen._screen_resized)
    assert "self._refresh_layout(size)" in resized, "_screen_resized changed"
    timer = inspect.getsource(Screen._on_timer_update)
    assert "if self._layout_required:" in timer, "a pending layout is no longer made by frame"
    screen: Screen[None] = lays_out_when_needed(type("Shown", (Screen,), {}))()
    assert screen._size == (0, 0) and screen._layout_required is False


def test_textual_pilot_waits_through_the_wait_for_idle_its_modules_import() -> None:
    import textual._wait
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.pilot import Pilot

    assert "await wait_for_idle(0)" in inspect.getsource(App._press_keys), "_press_keys changed"
    assert "await wait_for_idle(0)" in inspect.getsource(Pilot.pause), "Pilot.pause changed"
    assert "timeout" in inspect.signature(Pilot._wait_for_screen).parameters
    assert "self._next_callbacks.append(" in inspect.getsource(MessagePump.call_next)
    pump = MessagePump()
    assert pump._message_queue.empty() and pump._next_callbacks == []
    pump.post_message(Message())
    assert not pump._message_queue.empty(), "a message posted is no longer queued there"
    # This run's conftest replaced it where both look it up, and nowhere else.
    waits = App._press_keys.__globals__["wait_for_idle"]
    assert waits is Pilot.pause.__globals__["wait_for_idle"]
    assert waits is not textual._wait.wait_for_idle
    assert waits.__qualname__.endswith("handled"), "not pilot_waits_for_messages's wait"


async def test_textual_holds_a_mode_switch_s_updates_in_its_batch_count() -> None:
    from textual.screen import Screen

    assert "self.delay_update()" in inspect.getsource(App.switch_mode), "switch_mode changed"
    assert "self._begin_batch()" in inspect.getsource(App.delay_update)
    assert "not self.app._batch_count" in inspect.getsource(Screen._on_timer_update)

    class Two(App[None]):
        MODES = {"one": Screen, "two": Screen}

        def on_mount(self) -> None:
            self.switch_mode("one")

    app = Two()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.switch_mode("two")
        assert layout_pending(app.screen), "held after a switch"
        await until(pilot, lambda: not app._batch_count, what="the hold's end")
        await pilot.pause()  # the frame that makes the layout held
        assert not layout_pending(app.screen), "made once the hold ends"
        app.switch_mode("one")
        await pilot.pause()  # Pilot's wait outlasts the hold (pilot_waits_for_messages)
        assert not app._batch_count, "Pilot went on while the switch held the updates"


def test_textual_app_keeps_its_crash_in_exception() -> None:
    app: App[None] = App()
    assert app_crash(app) is None
    # The method that keeps it, not the whole class: the class's source is found by
    # parsing all of textual/app.py (0.2 CPU-s).
    kept = inspect.getsource(App._handle_exception)
    assert "self._exception = " in kept, "App no longer keeps _exception"


async def test_textual_serve_builds_its_routes_in_make_app() -> None:
    # Imported here: aiohttp costs 0.7 s, which every worker paid at collection.
    from textual_serve.server import Server

    server = Server("true", host="127.0.0.1", port=0)
    application = await serve_routes(server)  # aiohttp's run_app takes the coroutine
    assert type(application).__module__.startswith("aiohttp"), "Server._make_app changed"
    assert application.router.routes(), "Server._make_app builds no routes"


def test_httpx_imports_its_command_line_in_a_try() -> None:
    """httpx still leaves `main` out when `httpx._main` cannot be imported: a process
    started with that import blocked has httpx working and no command line loaded."""
    import subprocess
    import sys

    probe = (
        "import sys; from inboxdesk.private_apis import skip_httpx_command_line;"
        "skip_httpx_command_line(); import httpx;"
        "assert httpx.Client and httpx.AsyncClient;"
        "assert 'pygments.lexers' not in sys.modules and 'rich.syntax' not in sys.modules;"
        "print(httpx.main.__module__)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "httpx", "httpx no longer guards its `_main` import"


def test_textual_header_composes_a_header_title_and_sets_it_with_update() -> None:
    from textual.widgets import Header
    from textual.widgets._header import HeaderTitle

    assert "yield HeaderTitle()" in inspect.getsource(Header.compose), "Header's title moved"
    assert "query_one(HeaderTitle).update(" in inspect.getsource(Header), "title set otherwise"
    other = object()
    title, kept = header_parts_title_in_place([HeaderTitle(), other])
    assert isinstance(title, HeaderTitle) and type(title) is not HeaderTitle and kept is other


async def test_textual_draws_each_frame_through_compositor_render_update() -> None:
    """The tests' headless apps (tests/conftest.py) draw a change at `draw_frame`, not
    at their next frame; a screenshot still draws the whole screen."""
    from textual._compositor import Compositor
    from textual.screen import Screen
    from textual.strip import Strip
    from textual.widgets import Static

    refresh = inspect.getsource(Screen._compositor_refresh)
    assert "self._compositor.render_update(" in refresh, "a frame is drawn otherwise"
    assert "screen_stack=app._background_screens" in refresh, "frames drawn otherwise"
    assert "full: bool = False" in inspect.getsource(Compositor.render_update)

    class Counted(Static):
        drawn = 0

        def render_lines(self, crop: Region) -> list[Strip]:
            Counted.drawn += 1
            return super().render_lines(crop)

    class Drawn(App[None]):
        def compose(self) -> ComposeResult:
            yield Counted("before")

    app = Drawn()
    async with app.run_test(size=(20, 3)) as pilot:
        await pilot.pause()
        draw_frame(app)
        before = Counted.drawn
        app.query_one(Counted).update("after")
        await pilot.pause()
        await pilot.pause()
        assert Counted.drawn == before, "a headless frame was drawn though no test looked"
        draw_frame(app)
        assert Counted.drawn > before, "draw_frame drew nothing"
        assert "after" in app.export_screenshot()


async def test_a_render_error_in_a_tests_last_state_is_raised_as_textual_raises_it() -> None:
    """A state no test waited on (`until`) is drawn as the app shuts down: a widget that
    fails to draw it ends the app with its error, which `run_test` raises, as Textual's
    own frame would have; the frames drawn when looked at hid it."""
    from textual.geometry import Size
    from textual.scroll_view import ScrollView
    from textual.strip import Strip

    assert "await app._shutdown()" in inspect.getsource(App.run_test), "shut down otherwise"
    assert "raise self._exception" in inspect.getsource(App.run_test), "errors raised otherwise"

    class DrawError(RuntimeError):
        """Shown through its own `__rich__`, as Textual's `panic`: a plain error's
        traceback, with its locals and its source highlighted, cost a CPU-second to
        draw and is not what is checked. Both ways keep the error and end the app."""

        def __rich__(self) -> str:
            return str(self)

    class Failing(ScrollView):
        fails = False

        def on_mount(self) -> None:
            self.virtual_size = Size(0, 3)

        def render_line(self, y: int) -> Strip:
            if self.fails:
                raise DrawError("could not draw")
            return Strip.blank(self.size.width)

    class Drawn(App[None]):
        BINDINGS = [("b", "fail", "")]

        def compose(self) -> ComposeResult:
            yield Failing()

        def action_fail(self) -> None:
            self.query_one(Failing).fails = True
            self.query_one(Failing).refresh()

    app = Drawn()
    try:
        async with app.run_test(size=(20, 5)) as pilot:
            await pilot.press("b")
            await pilot.pause()
    except DrawError as error:
        assert str(error) == "could not draw"
    else:
        raise AssertionError("the last state's render error was hidden")


async def test_textual_parses_each_stylesheet_source_through_parse_rules() -> None:
    """The tests' apps (tests/conftest.py) share the rules parsed from the same source
    under the same variables: a second app parses nothing again and styles alike, and
    another theme's variables are parsed anew."""
    from textual.css.stylesheet import Stylesheet
    from textual.widgets import Static

    assert "self._parse_rules(" in inspect.getsource(Stylesheet.parse), "parsed otherwise"
    share_parsed_css()  # once per process: installed already by tests/conftest.py
    textual_own = inspect.getsource(Stylesheet).split("def _parse_rules(")[1].split(")")[0]
    parameters = [p.split(":")[0].strip() for p in textual_own.split(",") if p.strip()]
    assert parameters == ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]

    class Styled(App[None]):
        CSS = "Static { color: $primary; width: 17; }"

        def compose(self) -> ComposeResult:
            yield Static("x")

    async def rules_and_style(theme: str) -> tuple[list[object], object, int]:
        app = Styled()
        app.theme = theme
        async with app.run_test(size=(20, 3)):
            shown = app.query_one(Static)
            return list(app.stylesheet.rules), shown.styles.color, shown.size.width

    first, color, width = await rules_and_style("textual-dark")
    second, color_again, width_again = await rules_and_style("textual-dark")
    assert all(a is b for a, b in zip(first, second, strict=True)), "parsed again"
    assert (color_again, width_again) == (color, width) == (color, 17), "styled otherwise"
    other, other_color, _ = await rules_and_style("textual-light")
    assert not any(a is b for a, b in zip(first, other, strict=False)), "variables ignored"
    assert other_color != color, "another theme's primary colour"


async def test_textual_lays_a_screen_out_again_after_sizing_its_widgets() -> None:
    """What `lays_out_once` relies on: a layout that sizes widgets asks for a second
    one (Textual's screen; the inbox's skips it), and a scrollbar that comes changes
    the room inside, which is laid out again on either screen."""
    from textual._time import get_time
    from textual.containers import VerticalScroll
    from textual.message import Message
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Static

    from tests.waiting import until

    assert "ancestor._clear_arrangement_cache()" in inspect.getsource(Widget._check_refresh)
    assert "ancestor._layout_updates += 1" in inspect.getsource(Widget._check_refresh)
    assert "self._layout_widgets.clear()" in inspect.getsource(Screen._refresh_layout)
    assert list(inspect.signature(Screen._refresh_layout).parameters) == [
        "self",
        "size",
        "scroll",
    ]
    assert Message().time <= get_time()

    class Plain(Screen[None]):
        def compose(self) -> ComposeResult:
            with VerticalScroll():
                yield Static("one line", id="text")

    @lays_out_once
    class Once(Plain):
        pass

    async def layouts_of(screen: Screen[None], lines: int) -> tuple[int, bool]:
        app = App[None]()
        async with app.run_test(size=(30, 6)) as pilot:
            await app.push_screen(screen)
            await pilot.pause()
            laid: list[object] = []
            screen.screen_layout_refresh_signal.subscribe(app, laid.append, immediate=True)
            text = screen.query_one("#text", Static)
            text.update("\n".join(["line"] * lines))
            await until(pilot, lambda: text.size.height == lines, what="the text resized")
            await pilot.pause()
            await pilot.pause()
            return len(laid), screen.query_one(VerticalScroll).show_vertical_scrollbar

    assert await layouts_of(Plain(), 3) == (2, False), "Textual no longer lays out twice"
    assert await layouts_of(Once(), 3) == (1, False), "laid out again for nothing"
    assert await layouts_of(Once(), 9) == (2, True), "a scrollbar came: laid out again"


def test_textual_walks_every_class_for_a_message_s_handlers_as_the_plan_does() -> None:
    """Textual looks for a message's handlers in each class of the pump's MRO, its `@on`
    handlers first, then `_on_x`, else `on_x`, and stops before a class once the default
    is prevented: the plan `find_handlers_once_per_class` makes per class finds the same
    handlers, in the same order, for every handler of Textual's and the app's classes."""
    import functools

    from textual import events
    from textual.message import Message
    from textual.message_pump import MessagePump

    import inboxdesk.tui.app  # noqa: F401  (installs the plans; the app's classes too)

    source = inspect.getsource(inspect.unwrap(MessagePump._get_dispatch_methods))
    for part in (
        'cls.__dict__.get("_decorated_handlers")',
        'cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(',
        "if message._no_default_action:\n                break",
        'not getattr(method, "_textual_on", None)',
    ):
        assert part in source, f"MessagePump._get_dispatch_methods changed: {part!r}"
    textual_walk = inspect.unwrap(MessagePump._get_dispatch_methods)
    assert textual_walk is not MessagePump._get_dispatch_methods, "the plans are not installed"
    find_handlers_once_per_class()  # once is enough: Textual's stays the one wrapped
    assert inspect.unwrap(MessagePump._get_dispatch_methods) is textual_walk

    def subclasses(cls: type) -> set[type]:
        return {cls}.union(*(subclasses(sub) for sub in cls.__subclasses__()))

    @functools.cache
    def message(message_class: type[Message], prevented: bool) -> Message:
        message = object.__new__(message_class)
        message._no_default_action = prevented
        message._sender = None
        return message

    messages = {m.handler_name: m for m in subclasses(Message) if "handler_name" in vars(m)}
    compared = 0
    for pump_class in subclasses(MessagePump):
        pump = object.__new__(pump_class)
        names = {name.lstrip("_") for cls in pump_class.__mro__ for name in vars(cls)}
        handled = [messages[name] for name in names if name in messages]
        handled += [events.Idle, events.Callback, events.Key, events.Mount]
        for message_class in handled:
            for prevented in (False, True):
                sent = message(message_class, prevented)
                name = message_class.handler_name
                planned = list(pump._get_dispatch_methods(name, sent))
                assert planned == list(textual_walk(pump, name, sent)), (pump_class, name)
                compared += bool(planned)
    assert compared > 500, "too few handlers compared"


async def test_found_handlers_follow_prevent_default_selectors_and_classes_made_later() -> None:
    """Handlers found from a plan per class, as a user's app sees them: a subclass's
    handler that prevents the default stops its bases' handlers for that message only; an
    `@on` handler with a selector runs for the matching widget alone, once; a class made
    at run time, after its base has handled the message, gets its own handlers too."""
    from textual import on
    from textual.message import Message
    from textual.widgets import Button

    find_handlers_once_per_class()
    seen: list[str] = []

    class Ping(Message):
        def __init__(self, prevent: bool) -> None:
            super().__init__()
            self.prevent = prevent

    class Base(App[None]):
        def compose(self) -> ComposeResult:
            yield Button("yes", id="yes")
            yield Button("no", id="no")

        def on_ping(self, message: Ping) -> None:
            seen.append("base")

        @on(Button.Pressed, "#yes")
        def yes(self) -> None:
            seen.append("yes")

    class Child(Base):
        def on_ping(self, message: Ping) -> None:
            seen.append("child")
            message.prevent_default(message.prevent)

    async with Base().run_test() as pilot:
        pilot.app.post_message(Ping(prevent=False))
        await pilot.click("#no")
        await pilot.click("#yes")
        await pilot.pause()
    assert seen == ["base", "yes"]

    seen.clear()
    late = type("Late", (Child,), {"on_ping": lambda app, message: seen.append("late")})
    for app_class in (Child, late):
        async with app_class().run_test() as pilot:
            pilot.app.post_message(Ping(prevent=True))
            await pilot.pause()
            pilot.app.post_message(Ping(prevent=False))
            await pilot.click("#yes")
            await pilot.pause()
    # Each class's handler runs, the subclass's first, until one prevents the default.
    as_child = ["child", "child", "base", "yes"]
    as_late = ["late", "child", "late", "child", "base", "yes"]
    assert seen == [*as_child, *as_late]


def test_textual_counts_a_callback_s_parameters_as_signature_does() -> None:
    """Textual calls a callback back with as many arguments as it takes, counted once per
    function by `inspect.signature`; `count_parameters_from_code` counts a plain function
    from its code, the same, and leaves any other callable to Textual."""
    import functools

    import textual._callback
    from textual._callback import count_parameters

    source = inspect.getsource(textual._callback)
    assert "return len(signature(func).parameters)" in source, "_count_parameters changed"
    assert "param_count = _count_parameters(" in source, "count_parameters counts otherwise"
    assert "func._param_count = param_count" in source, "counts no longer kept per function"
    count_parameters_from_code()
    count_parameters_from_code()  # once is enough

    def closure(a: int) -> object:
        return lambda: a

    def every_kind(a: int, /, b: int, *args: int, c: int = 1, **kw: int) -> None: ...

    async def coroutine(a: int, b: int = 2) -> None: ...

    def generator(*, a: int) -> Iterator[int]:
        yield a

    @functools.wraps(every_kind)
    def wrapped(*args: int, **kw: int) -> None: ...

    def signed(a: int, b: int) -> None: ...

    signed.__signature__ = inspect.Signature()  # type: ignore[attr-defined]

    class Callable:
        def __call__(self, a: int) -> None: ...

        def method(self, a: int, b: int) -> None: ...

        def bound_to_args(*args: int) -> None: ...

        @classmethod
        def of_class(cls, a: int) -> None: ...

    functions = [
        closure(1), closure, every_kind, coroutine, generator, wrapped, signed, Callable(),
        Callable().method, Callable().bound_to_args, Callable.of_class, Callable().of_class,
        functools.partial(Callable().method, 1), functools.partial(every_kind, 1),
        lambda *a, **k: None,
    ]  # fmt: skip
    for function in functions:
        expected = len(inspect.signature(function).parameters)
        assert textual._callback._count_parameters(function) == expected, function
    # What `call_later` hands Textual: a new partial of the callback, counted through it.
    assert count_parameters(functools.partial(closure(1))) == 0
    assert count_parameters(functools.partial(Callable().method, 1)) == 1
