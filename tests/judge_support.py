"""Shared helpers of the ``bolt judge`` tests: real runs over the bundled sample, a real server process.

The runs are built from topic 1.001's nuggets (real extracts of the sample threads at their real
offsets), so no index or JVM is needed; ``beta`` repeats one of ``alpha``'s bullets, changed only
in case and final punctuation, to exercise reuse.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from bolt.data import sample_corpus_path
from bolt.formats.submission import Bullet, Result, Source, write_run
from bolt.formats.topics import read_topics

REPO = Path(__file__).resolve().parents[1]
TOPICS = REPO / "topics" / "sample.xml"
CORPUS = Path(sample_corpus_path())
TOPIC = "1.001"
#: Chromium flags that work on a sandboxless, offline machine (the browser test and scripts/benchmarks/judge.py)
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def nuggets(topic: str = TOPIC) -> list[tuple[str, str, str, int]]:
    """(facet id, text, thread, offset) of every nugget of a sample topic."""
    t = next(t for t in read_topics(TOPICS) if t.topic_id == topic)
    return [(f.id, n.text, n.post, n.offset) for f in t.facets for n in f.nuggets if n.post]


def make_runs(folder: Path) -> dict[str, Path]:
    """Two runs for topic 1.001: alpha (four nugget bullets) and beta (one repeated, one new)."""
    ns = nuggets()
    eng1 = next(n for n in ns if n[0] == "1" and "-eng-" in n[2])
    arz1 = next(n for n in ns if n[0] == "1" and "-arz-" in n[2])
    eng2 = next(n for n in ns if n[0] == "2" and "-eng-" in n[2])
    cmn3 = next(n for n in ns if n[0] == "3" and "-cmn-" in n[2])
    eng3 = next(n for n in ns if n[0] == "3" and "-eng-" in n[2])

    def bullet(i: int, n, text: str | None = None) -> Bullet:
        return Bullet(i, text or n[1], (Source(n[2], n[3]),))

    folder.mkdir(parents=True, exist_ok=True)
    paths = {"alpha": folder / "alpha.xml", "beta": folder / "beta.xml"}
    write_run("alpha", [Result(TOPIC, (bullet(1, eng1), bullet(2, arz1), bullet(3, eng2), bullet(4, cmn3)))],
              paths["alpha"])
    write_run("beta", [Result(TOPIC, (bullet(1, eng3), bullet(2, eng1, eng1[1].upper() + ".")))], paths["beta"])
    return paths


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy


class Judge:
    """A ``bolt judge`` process on a free port, and the URL and token it printed."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "bolt.cli", "judge", *args, "--port", "0", "--no-browser"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        line = self.proc.stdout.readline()
        m = re.match(r"open (http://127\.0\.0\.1:(\d+)/)\?token=(\S+)", line)
        if m is None:
            self.proc.wait(timeout=30)
            err = self.proc.stderr.read()
            self.stop()
            raise AssertionError(f"bolt judge printed {line!r}; stderr: {err}")
        self.base, self.port, self.token = m.group(1), int(m.group(2)), m.group(3)
        self.url = f"{self.base}?token={self.token}"

    def call(self, path: str, body: object = None, *, headers: dict | None = None,
             raw: bytes | None = None) -> tuple[int, dict]:
        """One request to the API (token and same-origin headers unless overridden)."""
        h = {"X-Bolt-Token": self.token, "Origin": self.base.rstrip("/")}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        req = urllib.request.Request(self.base + path.lstrip("/"), data=data, headers=h,
                                     method="POST" if data is not None else "GET")
        try:
            with _DIRECT.open(req, timeout=30) as res:
                data = res.read() or b"{}"
                if not res.headers.get("content-type", "").startswith("application/json"):
                    return res.status, {"text": data.decode("utf-8", "replace")}
                return res.status, json.loads(data)
        except urllib.error.HTTPError as exc:
            text = exc.read()
            try:
                return exc.code, json.loads(text)
            except json.JSONDecodeError:
                return exc.code, {"text": text.decode("utf-8", "replace")}

    def kill(self) -> None:
        """End the server as a crash would (SIGKILL: no clean-up runs)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, sig: int = signal.SIGINT) -> str:
        """Stop the server (Ctrl-C by default); returns what it wrote to stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        err = ""
        if self.proc.stderr and not self.proc.stderr.closed:
            err = self.proc.stderr.read()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()
        return err
