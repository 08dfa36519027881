#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checks the built documentation site (build/docs/html), without the network.

    tools/docs_site_check.py links [HTML_DIR]
        every internal link, image, script and stylesheet of every page resolves to a file of
        the site, and every #anchor to an id in its target page;
    tools/docs_site_check.py browser [HTML_DIR] [SCREENSHOT_DIR]
        headless Chromium (Debian's chromium) loads the index, one API page per language, an
        algorithm page and the search page from a local HTTP server, takes a screenshot of
        each, and fails on a JavaScript error, a console error, a page or resource that does
        not load, or a search for "encrypt" that finds nothing. Talks to Chromium over the
        DevTools protocol (websocket-client).
"""

from __future__ import annotations

import base64
import functools
import html.parser
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

PAGES = [
    ("index", "index.html"),
    ("api-cpp", "_generated/reference/cpp-registry.html"),
    ("api-c", "_generated/reference/c-lwc.html"),
    ("api-python", "reference/python.html"),
    ("api-csharp", "_generated/reference/csharp.html"),
    ("algorithm-ascon", "_generated/algorithms/ascon.html"),
    ("search-encrypt", "search.html?q=encrypt"),
]


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        if tag == "a" and a.get("href"):
            self.refs.append(a["href"])
        elif tag in ("img", "script") and a.get("src"):
            self.refs.append(a["src"])
        elif tag == "link" and a.get("href") and a.get("rel") in ("stylesheet", "icon", "search"):
            self.refs.append(a["href"])


def check_links(root: Path) -> int:
    pages = {p: _parse(p) for p in root.rglob("*.html")}
    problems = []
    for page, parsed in pages.items():
        for ref in parsed.refs:
            url = urllib.parse.urlsplit(ref)
            if url.scheme or url.netloc or ref.startswith(("mailto:", "javascript:")):
                continue
            target = page if not url.path else (page.parent / urllib.parse.unquote(url.path)).resolve()
            if url.path.endswith("/"):
                target = target / "index.html"
            try:
                target.relative_to(root.resolve())
            except ValueError:
                problems.append(f"{page.relative_to(root)}: {ref} leaves the site")
                continue
            if not target.exists():
                problems.append(f"{page.relative_to(root)}: {ref} does not exist")
                continue
            if url.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if urllib.parse.unquote(url.fragment) not in ids:
                    problems.append(f"{page.relative_to(root)}: {ref}: no anchor #{url.fragment}")
    for p in problems:
        print("broken:", p)
    print(f"links: {sum(len(p.refs) for p in pages.values())} references in {len(pages)} pages, "
          f"{len(problems)} broken")
    return 1 if problems else 0


@functools.lru_cache(maxsize=None)
def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


# ---- the browser ---------------------------------------------------------------------------

class _DevTools:
    """One page target of Chromium, driven over the DevTools protocol."""

    def __init__(self, ws_url: str) -> None:
        import websocket  # websocket-client

        self.ws = websocket.create_connection(ws_url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_for(self, method: str, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        self.ws.settimeout(1)
        try:
            while time.monotonic() < deadline:
                try:
                    msg = json.loads(self.ws.recv())
                except Exception:  # a receive timeout: look again until the deadline
                    continue
                if msg.get("method") == method:
                    return msg
                self.events.append(msg)
        finally:
            self.ws.settimeout(60)
        return None

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    raise SystemExit("no chromium found (Debian: apt-get install chromium)")


def check_browser(root: Path, shots: Path) -> int:
    shots.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"

    port = _free_port()
    profile = tempfile.mkdtemp(prefix="lwc-docs-chromium-")
    browser = subprocess.Popen(
        [_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", "--disable-background-networking", f"--user-data-dir={profile}",
         f"--remote-debugging-port={port}", "--window-size=1280,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = []
    try:
        ws_url = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
                    pages = [t for t in json.load(r) if t.get("type") == "page"]
                if pages:
                    ws_url = pages[0]["webSocketDebuggerUrl"]
                    break
            except OSError:
                pass
            time.sleep(0.3)
        if not ws_url:
            raise SystemExit("chromium did not open its DevTools endpoint")
        tab = _DevTools(ws_url)
        for domain in ("Page", "Runtime", "Log", "Network"):
            tab.call(f"{domain}.enable")
        tab.call("Emulation.setDeviceMetricsOverride", width=1280, height=900,
                 deviceScaleFactor=1, mobile=False)
        for name, path in PAGES:
            tab.events.clear()
            tab.call("Page.navigate", url=base + path)
            if not tab.wait_for("Page.loadEventFired", 30):
                failures.append(f"{path}: did not finish loading")
                continue
            if path.startswith("search.html"):
                # The index loads and the results arrive after the load event: wait until the
                # search says it finished, or its count stops growing.
                found, same, summary = 0, 0, ""
                for _ in range(120):
                    count = tab.evaluate("document.querySelectorAll('#search-results li').length") or 0
                    summary = tab.evaluate(
                        "(document.querySelector('#search-results p.search-summary') || {}).textContent || ''")
                    same = same + 1 if count == found else 0
                    found = count
                    if found and (summary or same >= 8):
                        break
                    time.sleep(0.25)
                if not found:
                    failures.append(f"{path}: the search found nothing")
                else:
                    print(f"  search for 'encrypt': {found} results ({summary.strip()})")
            else:
                time.sleep(0.3)
            title = tab.evaluate("document.title") or ""
            shot = tab.call("Page.captureScreenshot", format="png")
            (shots / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))
            tab.call("Runtime.evaluate", expression="0")  # collect the events of this page
            for ev in tab.events:
                method, p = ev.get("method"), ev.get("params", {})
                if "favicon.ico" in json.dumps(p):
                    continue  # asked for by the browser on its own; no page links to it
                if method == "Runtime.exceptionThrown":
                    d = p.get("exceptionDetails", {})
                    failures.append(f"{path}: JavaScript error: "
                                    f"{d.get('exception', {}).get('description') or d.get('text')}")
                elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                    failures.append(f"{path}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
                elif method == "Runtime.consoleAPICalled" and p.get("type") == "error":
                    failures.append(f"{path}: console error: {p.get('args')}")
                elif method == "Network.responseReceived" and p.get("response", {}).get("status", 200) >= 400:
                    failures.append(f"{path}: {p['response']['status']} for {p['response']['url']}")
            print(f"  {path}: '{title}', screenshot {shots / (name + '.png')}")
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("browser:", f)
    print(f"browser: {len(PAGES)} pages, {len(failures)} problems")
    return 1 if failures else 0


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("links", "browser"):
        print(__doc__)
        return 2
    root = Path(sys.argv[2] if len(sys.argv) > 2 else "build/docs/html").resolve()
    if sys.argv[1] == "links":
        return check_links(root)
    shots = Path(sys.argv[3] if len(sys.argv) > 3 else "build/docs/screenshots")
    return check_browser(root, shots)


if __name__ == "__main__":
    sys.exit(main())
