"""The play page in a real headless Chromium (Debian's chromium + chromium-driver, driven by selenium).

Skipped, with the reason, where the browser, its driver or selenium is missing, unless
``LIGHTSOUT_REQUIRE_BROWSER=1`` (set by .ci/run), which turns a missing browser into a
failure.  ``LIGHTSOUT_PLAY_SCREENSHOT=docs`` also refreshes docs/play.png.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

import lightsout
import oracle
from playserver import serving

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900", "--force-device-scale-factor=1"]


def _missing() -> str:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (the test extra has it for Python >= 3.10: pip install '.[test]')"
    if CHROMIUM is None or CHROMEDRIVER is None:
        return ("Chromium or ChromeDriver is not installed (Debian: apt-get install chromium chromium-driver; "
                ".ci/run installs them)")
    return ""


MISSING = _missing()
if MISSING:
    if os.environ.get("LIGHTSOUT_REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"LIGHTSOUT_REQUIRE_BROWSER=1 but {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with serving() as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="lightsout-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, srv, query=""):
    driver.get(srv.url + query)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return !document.getElementById('board').classList.contains('busy')"))


def read_board(driver) -> np.ndarray:
    cells = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board .cell'), "
        "e => [Number(e.dataset.row), Number(e.dataset.col), Number(e.dataset.state)])")
    rows = max(r for r, _, _ in cells) + 1
    cols = max(c for _, c, _ in cells) + 1
    board = np.full((rows, cols), -1, dtype=np.int64)
    for r, c, s in cells:
        board[r, c] = s
    assert (board >= 0).all() and len(cells) == rows * cols
    return board


def cell(driver, r, c):
    return driver.find_element(By.CSS_SELECTOR, f'#board .cell[data-row="{r}"][data-col="{c}"]')


def marked(driver, name) -> np.ndarray:
    board = np.zeros_like(read_board(driver))
    for r, c, count in driver.execute_script(
            f"return Array.from(document.querySelectorAll('#board .cell.{name}'), "
            f"e => [Number(e.dataset.row), Number(e.dataset.col), Number(e.dataset.{name} || 1)])"):
        board[r, c] = count
    return board


def message(driver) -> str:
    return driver.find_element(By.ID, "message").text


def wait_message(driver, words, timeout=20):
    WebDriverWait(driver, timeout).until(lambda d: words in message(d))


def no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


@pytest.mark.parametrize("query, torus, self_toggle, states", [
    ("?rows=5&cols=5", False, True, 2),
    ("?rows=6&cols=7&states=3&torus=1&board=random", True, True, 3),
    ("?rows=4&cols=5&sigma=1&board=random", False, False, 2),
    ("?rows=2&cols=3&torus=1&states=4&board=random", True, True, 4),
    ("?rows=1&cols=1", False, True, 2),
    ("?rows=3&cols=8&torus=1&sigma=1&states=5&board=random", True, False, 5),
])
def test_clicks_reproduce_press(browser, server, query, torus, self_toggle, states):
    open_page(browser, server, query)
    start = read_board(browser)
    rows, cols = start.shape
    rng = np.random.default_rng(rows * 10 + cols)
    presses = np.zeros_like(start)
    for _ in range(12):
        r, c = int(rng.integers(rows)), int(rng.integers(cols))
        cell(browser, r, c).click()
        presses[r, c] += 1
    after = read_board(browser)
    expected = lightsout.press(start, presses % states, torus=torus, self_toggle=self_toggle, states=states)
    assert after.tolist() == np.asarray(expected, dtype=np.int64).tolist()
    # and the independent oracle agrees
    assert after.tolist() == oracle.replay_nd(start, presses, torus, self_toggle, states).tolist()
    assert browser.find_element(By.ID, "moves").text == "12"
    # undo every click, then redo them
    for _ in range(12):
        browser.find_element(By.ID, "undo").click()
    assert read_board(browser).tolist() == start.tolist()
    assert browser.find_element(By.ID, "moves").text == "0"
    for _ in range(12):
        browser.find_element(By.ID, "redo").click()
    assert read_board(browser).tolist() == after.tolist()
    no_console_errors(browser)


def test_hints_solve_all_lit_5x5(browser, server):
    open_page(browser, server, "?rows=5&cols=5")
    assert read_board(browser).sum() == 25
    clicks = 0
    while read_board(browser).any():
        assert clicks < 30, "the hints do not converge"
        browser.find_element(By.ID, "hint").click()
        WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.hint"))
        if clicks == 0:
            assert "fewest" in message(browser) and "proven" in message(browser)
        hinted = browser.find_element(By.CSS_SELECTOR, "#board .cell.hint")
        hinted.click()
        clicks += 1
    assert clicks == 15
    assert "Solved in 15 moves" in message(browser)
    assert browser.find_element(By.ID, "moves").text == "15"
    no_console_errors(browser)


def test_unsolvable_board_shows_its_proof(browser, server, tmp_path):
    board = np.zeros((5, 5), dtype=np.int64)
    board[0, 0] = 1
    assert not lightsout.is_solvable(board)  # a single lit corner of the 5 x 5 board
    open_page(browser, server, "?rows=5&cols=5&board=dark")
    browser.find_element(By.ID, "edit").click()
    cell(browser, 0, 0).click()
    browser.find_element(By.ID, "edit").click()
    assert read_board(browser).tolist() == board.tolist()
    browser.find_element(By.ID, "hint").click()
    wait_message(browser, "cannot be turned dark")
    proof = marked(browser, "proof")
    assert proof.any()
    assert not oracle.replay(np.zeros((5, 5)), proof).any(), "the highlighted pattern is not quiet"
    assert int((proof * board).sum()) % 2 == 1
    assert "odd" in message(browser)
    shot = tmp_path / "unsolvable.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000
    # presses keep it unsolvable, and the proof stays
    cell(browser, 2, 2).click()
    assert "cannot be turned dark" in message(browser)
    no_console_errors(browser)


def test_unsolvable_with_three_states(browser, server):
    board = np.zeros((5, 5), dtype=np.int64)
    board[0, 0] = 1
    assert not lightsout.is_solvable(board, states=3)
    open_page(browser, server, "?rows=5&cols=5&states=3&board=dark")
    browser.find_element(By.ID, "edit").click()
    cell(browser, 0, 0).click()
    browser.find_element(By.ID, "edit").click()
    browser.find_element(By.ID, "solve").click()
    wait_message(browser, "cannot be turned dark")
    proof = marked(browser, "proof")  # press counts 1..2, shown in the cells
    assert proof.any() and proof.max() < 3
    assert not oracle.replay_nd(np.zeros((5, 5), dtype=np.int64), proof, False, True, 3).any()
    assert int((proof * board).sum()) % 3 != 0
    assert "(mod 3)" in message(browser)
    no_console_errors(browser)


def test_keyboard(browser, server):
    open_page(browser, server, "?rows=4&cols=4&board=dark")
    board_el = browser.find_element(By.ID, "board")
    board_el.click()  # focus; also presses the cell under the pointer (the centre)
    start = read_board(browser)
    body = browser.switch_to.active_element
    keys = [Keys.HOME, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP, Keys.SPACE,
            Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ENTER]
    for key in keys:
        body.send_keys(key)
    presses = np.zeros((4, 4), dtype=np.int64)
    presses[0, 0] = presses[1, 1] = 1
    # a screen reader hears where the cursor is
    assert browser.find_element(By.ID, "cursor-info").get_attribute("textContent").startswith("Row 2, column 2: ")
    assert read_board(browser).tolist() == np.asarray(lightsout.press(start, presses), dtype=np.int64).tolist()
    body.send_keys("u")
    presses[1, 1] = 0
    assert read_board(browser).tolist() == np.asarray(lightsout.press(start, presses), dtype=np.int64).tolist()
    body.send_keys("r")
    presses[1, 1] = 1
    assert read_board(browser).tolist() == np.asarray(lightsout.press(start, presses), dtype=np.int64).tolist()
    body.send_keys("h")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.hint"))
    cursor = browser.find_element(By.CSS_SELECTOR, "#board .cell.cursor")
    assert "hint" in cursor.get_attribute("class").split()  # the cursor jumps to the hint
    no_console_errors(browser)


def test_solve_overlay_and_quiet_patterns(browser, server):
    open_page(browser, server, "?rows=5&cols=5")
    browser.find_element(By.ID, "solve").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.sol"))
    shown = marked(browser, "sol")
    assert shown.sum() == 15 and not oracle.replay(np.ones((5, 5)), shown).any()
    browser.find_element(By.ID, "solve").click()
    assert not marked(browser, "sol").any()
    browser.find_element(By.ID, "quiet").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.quiet"))
    assert "pattern 1 of 2" in browser.find_element(By.ID, "quiet-label").text
    first = marked(browser, "quiet")
    browser.find_element(By.ID, "quiet-next").click()
    second = marked(browser, "quiet")
    assert "pattern 2 of 2" in browser.find_element(By.ID, "quiet-label").text
    for pattern in (first, second):
        assert pattern.any() and not oracle.replay(np.zeros((5, 5)), pattern).any()
    assert first.tolist() != second.tolist()
    before = read_board(browser)
    browser.find_element(By.ID, "quiet-press").click()
    assert read_board(browser).tolist() == before.tolist()  # a quiet pattern changes no light
    assert browser.find_element(By.ID, "moves").text == str(int(second.sum()))
    no_console_errors(browser)


def test_200x200_stays_snappy(browser, server, tmp_path):
    open_page(browser, server, "?rows=200&cols=200&board=random")
    WebDriverWait(browser, 30).until(lambda d: "random board" in message(d))
    start = read_board(browser)
    assert start.shape == (200, 200) and start.any()
    timings = browser.execute_script("""
        const times = [];
        for (const [r, c] of [[0, 0], [100, 100], [199, 57], [37, 199], [150, 3]]) {
          const el = document.querySelector(`#board .cell[data-row="${r}"][data-col="${c}"]`);
          const t0 = performance.now();
          el.click();
          document.body.offsetHeight;  // the style and layout work of the change, done now
          times.push(performance.now() - t0);
        }
        return times;""")
    presses = np.zeros((200, 200), dtype=np.int64)
    for r, c in [(0, 0), (100, 100), (199, 57), (37, 199), (150, 3)]:
        presses[r, c] = 1
    assert read_board(browser).tolist() == np.asarray(lightsout.press(start, presses), dtype=np.int64).tolist()
    # milliseconds for a click: handler, DOM updates, style and layout (about 1-10 ms here; the
    # slowest of five gets some room for a loaded machine)
    assert sorted(timings)[2] < 50 and max(timings) < 100, timings
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.hint"))
    browser.save_screenshot(str(tmp_path / "board200.png"))
    no_console_errors(browser)


def test_screenshot(browser, server, tmp_path):
    """The picture for the README: a random 10 x 10 board, the solution shown, a hint."""
    open_page(browser, server, "?rows=10&cols=10")
    browser.execute_script("document.querySelector('#random').click()")
    wait_message(browser, "random board")
    browser.find_element(By.ID, "solve").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.sol"))
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.hint"))
    time.sleep(0.3)
    shot = tmp_path / "play.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    if os.environ.get("LIGHTSOUT_PLAY_SCREENSHOT") == "docs":
        shutil.copyfile(shot, ROOT / "docs" / "play.png")
    no_console_errors(browser)


# ---- press rules and masks (issue 30) ---------------------------------------------------

KNIGHT = [[0, 1, 0, 1, 0], [1, 0, 0, 0, 1], [0, 0, 1, 0, 0], [1, 0, 0, 0, 1], [0, 1, 0, 1, 0]]
NAMED_WEIGHTS = {
    "x": [[1, 0, 1], [0, 1, 0], [1, 0, 1]],
    "3x3": [[1, 1, 1], [1, 1, 1], [1, 1, 1]],
    "knight": KNIGHT,
    "hex": [[0, 1, 1], [1, 1, 1], [1, 1, 0]],
}


def stencil_replay(start, presses, weights, torus, states, holes=None):
    """The board after the presses, by the oracle's own press matrix (tests/oracle.py)."""
    weights = np.asarray(weights)
    centre = tuple(s // 2 for s in weights.shape)
    matrix = oracle.stencil_matrix(start.shape, torus, weights, centre, states)
    return oracle.stencil_replay(start, presses, matrix, states, holes)


def click_cells(driver, cells):
    for r, c in cells:
        cell(driver, r, c).click()


@pytest.mark.parametrize("rule, query, torus, states", [
    ("x", "?rows=6&cols=7&rule=x&board=random", False, 2),
    ("3x3", "?rows=5&cols=6&rule=3x3&states=3&torus=1&board=random", True, 3),
    ("knight", "?rows=7&cols=6&rule=knight&board=random", False, 2),
    ("knight", "?rows=6&cols=6&rule=knight&torus=1&states=4&board=random", True, 4),
    ("hex", "?rows=5&cols=5&rule=hex&board=random", False, 2),
])
def test_named_rules_press_as_the_library(browser, server, rule, query, torus, states):
    open_page(browser, server, query)
    WebDriverWait(browser, 20).until(lambda d: "random board" in message(d))
    start = read_board(browser)
    rows, cols = start.shape
    rng = np.random.default_rng(rows * 7 + cols)
    presses = np.zeros_like(start)
    clicks = [(int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(10)]
    for r, c in clicks:
        presses[r, c] += 1
    click_cells(browser, clicks)
    after = read_board(browser)
    expected = stencil_replay(start, presses, NAMED_WEIGHTS[rule], torus, states)
    assert after.tolist() == expected.tolist()
    assert after.tolist() == np.asarray(lightsout.press(start, presses % states, stencil=rule, torus=torus,
                                                        states=states), dtype=np.int64).tolist()
    no_console_errors(browser)


def test_custom_one_way_rule_and_its_proof(browser, server):
    open_page(browser, server, "?rows=4&cols=4&rule=custom&board=lit")
    # the custom grid starts as the plus; make it "the cell below and the cell to the right", no more
    weights = np.zeros((5, 5), dtype=np.int64)
    weights[3, 2] = weights[2, 3] = 1
    plus = np.zeros((5, 5), dtype=np.int64)
    plus[1:4, 2] = plus[2, 1:4] = 1
    for i in np.flatnonzero((weights != plus).ravel()):
        browser.find_element(By.CSS_SELECTOR, f'#rule-grid .rule-cell[data-i="{i}"]').click()
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rule-grid .rule-cell'), e => Number(e.dataset.weight))")
    assert shown == weights.ravel().tolist()
    start = read_board(browser)
    clicks = [(0, 0), (1, 2), (3, 3), (2, 1), (0, 0)]
    presses = np.zeros_like(start)
    for r, c in clicks:
        presses[r, c] += 1
    click_cells(browser, clicks)
    after = read_board(browser)
    assert after.tolist() == stencil_replay(start, presses, weights, False, 2).tolist()
    # an all-lit 4 x 4 board under this rule cannot be turned dark: the page shows the library's proof
    browser.find_element(By.ID, "alllit").click()
    lit = read_board(browser)
    browser.find_element(By.ID, "hint").click()
    wait_message(browser, "cannot be turned dark")
    proof = marked(browser, "proof")
    matrix = oracle.stencil_matrix((4, 4), False, weights, (2, 2), 2)
    everything = list(range(16))
    assert oracle.proves_unsolvable(proof, lit, matrix, 2, everything, everything)
    assert "weights" in message(browser)
    no_console_errors(browser)


def test_holes_unpressable_and_free_lights(browser, server):
    open_page(browser, server, "?rows=5&cols=5&board=lit")
    draw = browser.find_element(By.ID, "draw")
    holes = np.zeros((5, 5), dtype=bool)
    unpressable = np.zeros((5, 5), dtype=bool)
    free = np.zeros((5, 5), dtype=bool)
    holes[0, 0] = holes[2, 2] = True
    unpressable[4, 4] = True
    free[0, 4] = True
    for value, mask in (("hole", holes), ("unpressable", unpressable), ("free", free)):
        draw.find_element(By.CSS_SELECTOR, f'option[value="{value}"]').click()
        click_cells(browser, [tuple(int(v) for v in rc) for rc in np.argwhere(mask)])
        on = browser.execute_script(
            f"return Array.from(document.querySelectorAll('#board .cell.{value}'), "
            "e => [Number(e.dataset.row), Number(e.dataset.col)])")
        assert sorted(map(tuple, on)) == sorted(map(tuple, np.argwhere(mask).tolist()))
    draw.find_element(By.CSS_SELECTOR, 'option[value=""]').click()
    start = read_board(browser)
    assert start[holes].sum() == 0 and start[~holes].all()  # a hole holds no light
    # a hole and an unpressable cell refuse a press; other presses skip the holes
    click_cells(browser, [(0, 0), (4, 4)])
    assert read_board(browser).tolist() == start.tolist()
    clicks = [(1, 2), (2, 1), (3, 3)]
    presses = np.zeros((5, 5), dtype=np.int64)
    for r, c in clicks:
        presses[r, c] = 1
    click_cells(browser, clicks)
    after = read_board(browser)
    assert after.tolist() == stencil_replay(start, presses, [[0, 1, 0], [1, 1, 1], [0, 1, 0]], False, 2,
                                            holes).tolist()
    # the solution shown clears every required light, pressing no hole and no unpressable cell
    browser.find_element(By.ID, "solve").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.sol")
                                     or "cannot be turned dark" in message(d))
    if "cannot be turned dark" in message(browser):
        proof = marked(browser, "proof")
        full = oracle.stencil_matrix((5, 5), False, [[0, 1, 0], [1, 1, 1], [0, 1, 0]], (1, 1), 2)
        _, required, pressable = oracle.masked_system(full, holes, unpressable, free)
        assert oracle.proves_unsolvable(proof, after, full, 2, required, pressable)
    else:
        solution = marked(browser, "sol")
        assert not solution[holes | unpressable].any()
        left = stencil_replay(after, solution, [[0, 1, 0], [1, 1, 1], [0, 1, 0]], False, 2, holes)
        assert not left[~holes & ~free].any()
    no_console_errors(browser)


@pytest.mark.parametrize("rule, states", [("x", 3), ("knight", 2), ("hex", 2)])
def test_solution_shown_under_a_named_rule_clears_the_board(browser, server, rule, states):
    open_page(browser, server, f"?rows=5&cols=6&rule={rule}&states={states}&board=random")
    WebDriverWait(browser, 20).until(lambda d: "random board" in message(d))
    start = read_board(browser)
    assert start.any()
    browser.find_element(By.ID, "solve").click()
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .cell.sol"))
    shown = marked(browser, "sol")
    assert not stencil_replay(start, shown, NAMED_WEIGHTS[rule], False, states).any()
    assert f"{rule} rule" in browser.find_element(By.ID, "shape-label").text
    no_console_errors(browser)
