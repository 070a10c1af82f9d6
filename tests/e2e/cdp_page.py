#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cdp_page.py CHROMIUM PAGE.html SCREENSHOT.png JS_EXPRESSION

Opens a local page in headless Chromium over the DevTools protocol (a pipe,
--remote-debugging-pipe: Python's standard library only), waits for its load
event, evaluates JS_EXPRESSION (it must return a JSON-able value) and writes
a screenshot of the whole page. Prints one JSON object on stdout:
{"value": ..., "requests": [URLs other than the page], "console": [errors,
warnings, exceptions, log entries], "screenshot": {"width", "height",
"bytes"}}. Exit 0 when that could be done, 2 when not (a message on
stderr).
"""
import base64
import fcntl
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 40


class Pipe:
    def __init__(self, chromium, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():  # the protocol's fds: 3 reads commands, 4 writes replies
            r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--user-data-dir=" + profile,
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id)

    def read_one(self, deadline):
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\0", 1)
        return json.loads(line)

    def wait(self, match, timeout=TIMEOUT_S):
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if match(m):
                return self.events.pop(i)
        while True:
            m = self.read_one(deadline)
            if match(m):
                if "error" in m:
                    raise RuntimeError(json.dumps(m["error"]))
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
        except (EOFError, TimeoutError, RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return struct.unpack(">II", data[16:24])


def run(chromium, page, shot, expression, profile):
    p = Pipe(chromium, profile)
    try:
        target = p.send("Target.createTarget", {"url": "about:blank"})
        tid = target["result"]["targetId"]
        s = p.send("Target.attachToTarget",
                   {"targetId": tid, "flatten": True})["result"]["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            p.send(domain + ".enable", session=s)
        p.send("Emulation.setDeviceMetricsOverride",
               {"width": 1400, "height": 1000, "deviceScaleFactor": 1,
                "mobile": False}, session=s)
        url = "file://" + os.path.abspath(page)
        p.send("Page.navigate", {"url": url}, session=s)
        p.wait(lambda m: m.get("method") == "Page.loadEventFired")
        value = p.send("Runtime.evaluate",
                       {"expression": expression, "returnByValue": True},
                       session=s)["result"]
        if "exceptionDetails" in value:
            raise RuntimeError("expression failed: " +
                               json.dumps(value["exceptionDetails"]))
        png = p.send("Page.captureScreenshot",
                     {"format": "png", "captureBeyondViewport": True},
                     session=s)["result"]["data"]
        data = base64.b64decode(png)
        with open(shot, "wb") as f:
            f.write(data)
        w, h = png_size(data)
        requests, console = [], []
        for m in p.events:
            method, params = m.get("method"), m.get("params", {})
            if method == "Network.requestWillBeSent":
                if params["request"]["url"] != url:
                    requests.append(params["request"]["url"])
            elif method == "Runtime.exceptionThrown":
                console.append(params["exceptionDetails"].get("text", "?"))
            elif method == "Runtime.consoleAPICalled" and \
                    params.get("type") in ("error", "warning", "assert"):
                console.append(json.dumps(params.get("args")))
            elif method == "Log.entryAdded" and \
                    params["entry"].get("level") in ("error", "warning"):
                console.append(params["entry"].get("text", "?"))
        return {"value": value["result"].get("value"), "requests": requests,
                "console": console,
                "screenshot": {"width": w, "height": h, "bytes": len(data)}}
    finally:
        p.close()


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="ibproof-cdp.") as profile:
        try:
            out = run(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
                      profile)
        except (EOFError, TimeoutError, RuntimeError, OSError,
                KeyError) as e:
            print("cdp_page: %s" % e, file=sys.stderr)
            return 2
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
