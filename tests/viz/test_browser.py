"""The HTML replays in a real headless browser (issue 28): Debian's ``chromium`` driven by
``selenium`` through ``chromium-driver`` (``executable_path``; never a browser download).

Each kind of file (plan, verify, follow) is opened from ``file://``, stepped through with the
arrow keys and the slider, and the page must show the right step, state change and critique,
log no console error and make no request that leaves the file. A screenshot of each is saved
(to ``$ACTIONABLE_SCREENSHOTS`` when set, e.g. ``docs/figures``, else the test's tmp folder).

Skips, naming what to install, where the browser, its driver or selenium is missing.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from actionable.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no headless browser: apt-get install chromium chromium-driver"),
    pytest.mark.skipif(DRIVER is None, reason="no chromedriver: apt-get install chromium-driver"),
]

WALK_TV = 'scripted:["walk to television\\nswitch on television"]'
EVIL = '<script>window.__pwned=1</script><img src="http://example.invalid/x.png" onerror="window.__pwned=2"> TV'


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium (the dev extra)")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything
    opts = Options()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--allow-file-access-from-files"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    yield drv
    drv.quit()


def shots(tmp_path) -> Path:
    d = Path(os.environ.get("ACTIONABLE_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def open_page(drv, path: Path):
    drv.get_log("browser"), drv.get_log("performance")  # clear
    drv.get(path.resolve().as_uri())
    assert drv.execute_script("return !!window.__replay"), "the replay script did not run"


def check_clean(drv):
    """No console error, and no request but the file itself (data: URIs aside)."""
    errors = [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors
    urls = []
    for e in drv.get_log("performance"):
        msg = json.loads(e["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    assert urls and all(u.startswith(("file:", "data:", "about:")) for u in urls), urls


def text(drv, css):
    from selenium.webdriver.common.by import By

    return drv.find_element(By.CSS_SELECTOR, css).text


def key(drv, k, n=1):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = drv.find_element(By.TAG_NAME, "body")
    for _ in range(n):
        body.send_keys(getattr(Keys, k))


def test_plan_page(browser, tmp_path, capsys):
    html = tmp_path / "plan.html"
    rc = main(["plan", "Turn on TV", "--model", WALK_TV, "-q", "--html", str(html)])
    assert rc == 0, capsys.readouterr()
    open_page(browser, html)
    n = browser.execute_script("return window.__replay.n")
    assert text(browser, "#step-label") == f"step 1 of {n}"
    key(browser, "END")
    assert text(browser, "#step-label") == f"step {n} of {n}"
    assert "switch on television" in text(browser, "#step-text")
    assert "OFF -> ON" in text(browser, "#changes")
    assert "met" in text(browser, "#goals")
    key(browser, "ARROW_LEFT")
    assert text(browser, "#step-label") == f"step {n - 1} of {n}"
    assert browser.find_element("id", "agent").get_attribute("cx") not in (None, "-50")
    browser.save_screenshot(str(shots(tmp_path) / "replay-plan.png"))
    check_clean(browser)


def test_task_with_script_does_not_run(browser, tmp_path, capsys):
    from actionable.viz.document import plan_document
    from actionable.viz.html import write_html
    from tests.viz.test_viz import plan_json

    plan, _ = plan_json(tmp_path)
    plan["task"] = EVIL
    page = write_html(plan_document(plan), tmp_path / "evil.html")
    open_page(browser, page)
    assert browser.execute_script("return window.__pwned === undefined")
    assert "<script>window.__pwned=1</script>" in text(browser, "#title")  # shown as text
    check_clean(browser)  # and the <img> in the text requested nothing


def test_verify_page(browser, tmp_path):
    from actionable.viz.document import verify_document
    from actionable.viz.html import write_html
    from actionable.worlds.virtualhome.scene import load_scene

    g = load_scene("default")
    tv = next(t for t in g.nodes_of_class("television") if "OFF" in g.states_of(t))
    walk, grab, on = (f"[WALK] <television> ({tv})", f"[GRAB] <television> ({tv})", f"[SWITCHON] <television> ({tv})")
    rec = {"goal": "Turn on TV", "initial": f"{walk}\n{grab}", "final": f"{walk}\n{on}\n{on}", "converged": True,
           "rounds": [{"round": 1, "critiques": [
               {"kind": "REMOVE", "index": 1, "action": grab, "reason": "a television cannot be grabbed"},
               {"kind": "MISSING", "index": None, "action": "switch on television", "reason": "the TV must be on"}],
               "goal_conditions": ["ON(television)"]}]}
    page = write_html(verify_document(rec), tmp_path / "verify.html")
    open_page(browser, page)
    crit = text(browser, "#critiques")
    assert "#REMOVE" in crit and "a television cannot be grabbed" in crit and "#MISSING" in crit
    assert "[GRAB]" in text(browser, "#plan-before") and "[GRAB]" not in text(browser, "#plan-after")
    key(browser, "ARROW_RIGHT")
    assert text(browser, "#step-label") == "step 2 of 3" and "OFF -> ON" in text(browser, "#changes")
    assert text(browser, "#failure") == ""
    key(browser, "ARROW_RIGHT")  # switching on what is on: the failed step and why
    assert text(browser, "#step-label") == "step 3 of 3" and "failed:" in text(browser, "#failure")
    assert "is not off" in text(browser, "#failure")
    browser.save_screenshot(str(shots(tmp_path) / "replay-verify.png"))
    check_clean(browser)


def test_follow_page(browser, tmp_path, capsys):
    html, trace = tmp_path / "follow.html", tmp_path / "t.jsonl"
    rc = main(["follow", "--agent", "oracle", "--steps", "30", "--nonstationarity", "high", "--count", "3",
               "--trace", str(trace), "--html", str(html), "-q"])
    assert rc == 0, capsys.readouterr()
    recs = [json.loads(x) for x in trace.read_text().splitlines()]
    open_page(browser, html)
    assert text(browser, "#step-label") == "t = 0 (step 1 of 30)"
    key(browser, "ARROW_RIGHT", 5)
    assert text(browser, "#step-label") == "t = 5 (step 6 of 30)"
    assert recs[5]["skill"] in text(browser, "#step-text") and recs[5]["room"] in text(browser, "#room")
    truth = recs[5]["truth"]
    for k, v in enumerate(truth):
        assert text(browser, f"#truth-{k}") == ("true" if v else "false")
    browser.find_element("id", "slider").send_keys("\ue010")  # End on the slider itself
    assert text(browser, "#step-label") == "t = 29 (step 30 of 30)"
    assert len(browser.find_elements("css selector", "#timeline rect[data-outcome]")) == sum(
        1 for _ in json.loads(trace.read_text().splitlines()[-1])["summary"]["activations"])
    browser.set_window_size(1400, 1300)
    browser.save_screenshot(str(shots(tmp_path) / "replay-follow.png"))
    browser.set_window_size(1400, 1000)
    check_clean(browser)
