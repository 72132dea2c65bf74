#!/usr/bin/env python3
"""The page in a real browser (#48): headless Chromium, driven by selenium, against the page
scripts/build-web.sh built, served on 127.0.0.1 by a server that logs every request.

    python3 scripts/check-web.py --web target/web --gpuplan target/debug/gpuplan [--shots DIR]

It checks, against the command line run on the same files with the same options:
  - the team sample dropped on the page gives the CLI's workbook byte for byte, and its JSON;
  - the summary's total and the summary text are the CLI's;
  - a what-if (--set safety_margin=0.3) gives the CLI's workbook for that --set;
  - in Chinese, the page's words and the workbook (the CLI's --lang zh) are Chinese;
  - a bad workbook shows the CLI's error text, and a file over 50 MB the CLI's refusal;
  - a 1,000-workload sheet gives the CLI's workbook too (its time is printed);
  - the download link saves the workbook under the CLI's name;
  - the template is what gpuplan init writes, and a sample the repository's file;
  - after the page has loaded (the engine included) it makes no request at all.
Prints the times from drop to download; exits 1 on the first failed check.
"""

import argparse
import base64
import http.server
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

EPOCH = "1764547200"  # 2025-12-01T00:00:00Z, the tests' SOURCE_DATE_EPOCH
ROOT = Path(__file__).resolve().parent.parent


def fail(msg):
    print(f"check-web: FAILED: {msg}", file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


class Log:
    def __init__(self):
        self.lock = threading.Lock()
        self.paths = []

    def add(self, path):
        with self.lock:
            self.paths.append(path)

    def count(self):
        with self.lock:
            return len(self.paths)


def serve(folder, log):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".wasm": "application/wasm",
            ".js": "text/javascript",
        }

        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(folder), **k)

        def log_message(self, *args):
            pass

        def send_head(self):
            log.add(self.path)
            return super().send_head()

    httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def cli(gpuplan, folder, *args):
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    return subprocess.run(
        [gpuplan, *args], cwd=folder, env=env, capture_output=True, text=True
    )


def browser(downloads):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,1500",
        f"--user-data-dir={tempfile.mkdtemp(prefix='gpuplan-chromium-')}",
    ]:
        opts.add_argument(flag)
    opts.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
        },
    )
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def runs(d):
    return int(d.find_element(By.TAG_NAME, "body").get_attribute("data-runs") or 0)


def wait_run(d, before, timeout=300):
    WebDriverWait(d, timeout).until(lambda d: runs(d) > before)
    return d.find_element(By.TAG_NAME, "body").get_attribute("data-state")


def drop(d, path, timeout=300):
    """Chooses `path` in the file field (as a drop does) and waits for the run to end."""
    before = runs(d)
    began = time.monotonic()
    field = d.find_element(By.ID, "file")
    field.clear()
    field.send_keys(str(path))
    state = wait_run(d, before, timeout)
    return state, time.monotonic() - began


def blob(d, link_id):
    """The bytes behind a download link (a blob: URL: no network)."""
    b64 = d.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        fetch(document.getElementById(arguments[0]).href)
          .then(r => r.arrayBuffer())
          .then(b => {
            let s = ''; const u = new Uint8Array(b);
            for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
            done(btoa(s));
          })
          .catch(e => done('ERR ' + e));
        """,
        link_id,
    )
    check(not b64.startswith("ERR"), f"reading {link_id}: {b64}")
    return base64.b64decode(b64)


def text(d, element_id):
    return d.find_element(By.ID, element_id).text


def make_bad(src, dst):
    import openpyxl

    wb = openpyxl.load_workbook(src)
    ws = wb["Workloads"]
    header = [str(c.value) for c in ws[1]]
    column = next(i for i, h in enumerate(header, start=1) if h.endswith("(concurrency)"))
    ws.cell(row=3, column=column, value="abc")  # qa-api's 4
    wb.save(dst)


def make_thousand(src, dst):
    """team.xlsx with its workloads repeated to 1,000 rows (names made unique)."""
    import openpyxl

    wb = openpyxl.load_workbook(src)
    ws = wb["Workloads"]
    rows = [list(r) for r in ws.iter_rows(min_row=2, values_only=True) if r[0]]
    for r in range(2, ws.max_row + 1):
        for c in range(1, ws.max_column + 1):
            ws.cell(row=r, column=c, value=None)
    for i in range(1000):
        row = list(rows[i % len(rows)])
        row[0] = f"{row[0]}-{i + 1}"
        for c, v in enumerate(row, start=1):
            ws.cell(row=i + 2, column=c, value=v)
    wb.save(dst)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--web", default=str(ROOT / "target" / "web"))
    ap.add_argument("--gpuplan", required=True)
    ap.add_argument("--shots", help="folder for PNGs of the page in English and Chinese")
    a = ap.parse_args()
    web = Path(a.web)
    check((web / "pkg" / "gpuplan_web_bg.wasm").is_file(), f"no page in {web}: run scripts/build-web.sh")
    gpuplan = str(Path(a.gpuplan).resolve())

    work = Path(tempfile.mkdtemp(prefix="gpuplan-web-"))
    downloads = work / "downloads"
    downloads.mkdir()
    for name in ["team.xlsx"]:
        shutil.copy(ROOT / "samples" / name, work / name)
    make_bad(work / "team.xlsx", work / "bad.xlsx")
    make_thousand(work / "team.xlsx", work / "thousand.xlsx")
    with open(work / "huge.xlsx", "wb") as f:
        f.truncate(60_000_000)  # a sparse 60 MB file: over the CLI's 50 MB

    log = Log()
    httpd = serve(web, log)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/?source_date_epoch={EPOCH}"
    d = browser(downloads)
    try:
        d.set_script_timeout(120)
        d.get(url)
        WebDriverWait(d, 120).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes"
        )
        loaded = log.count()
        print(f"check-web: page loaded with {loaded} requests: {', '.join(log.paths)}")

        # 1. The team sample, in English: the CLI's bytes, JSON, summary and total.
        r = cli(gpuplan, work, "calc", "team.xlsx", "-o", "cli.xlsx", "--json", "cli.json", "--force")
        check(r.returncode == 0, f"gpuplan calc team.xlsx: {r.stderr}")
        state, secs = drop(d, work / "team.xlsx")
        check(state == "planned", f"team.xlsx: {text(d, 'error')}")
        page_xlsx = blob(d, "download-xlsx")
        check(page_xlsx == (work / "cli.xlsx").read_bytes(), "team: the page's workbook differs from the CLI's")
        check(blob(d, "download-json") == (work / "cli.json").read_bytes(), "team: the JSON differs from the CLI's")
        summary = d.execute_script("return window.gpuplanLast.summary")
        cli_summary = r.stderr if r.stdout == "" else r.stdout
        check("workload" in summary and "¥2,268.96" in summary, f"team: the page's summary {summary!r}")
        check(cli_summary.startswith(summary), f"team: the summary differs:\n{summary}\n---\n{cli_summary}")
        totals = text(d, "totals")
        check("total with safety margin ¥2,268.96" in totals, f"team: totals {totals!r}")
        check(d.find_element(By.ID, "download-xlsx").get_attribute("download") == "team.plan.xlsx", "team: download name")
        print(f"check-web: team.xlsx planned in the page in {secs:.2f} s (drop to download link), "
              f"engine {d.execute_script('return window.gpuplanLast.ms') / 1000:.2f} s; bytes equal the CLI's")

        # The link saves the file under the CLI's name.
        d.find_element(By.ID, "download-xlsx").click()
        saved = downloads / "team.plan.xlsx"
        WebDriverWait(d, 30).until(lambda _: saved.is_file() and saved.read_bytes() == page_xlsx)
        if a.shots:
            Path(a.shots).mkdir(parents=True, exist_ok=True)
            d.save_screenshot(str(Path(a.shots) / "web-en.png"))

        # 2. A what-if: --set safety_margin=0.3.
        r = cli(gpuplan, work, "calc", "team.xlsx", "-o", "cli-m.xlsx", "--set", "safety_margin=0.3", "-q", "--force")
        check(r.returncode == 0, r.stderr)
        margin = d.find_element(By.ID, "safety_margin")
        margin.send_keys("0.3")
        before = runs(d)
        d.find_element(By.ID, "plan").click()
        check(wait_run(d, before) == "planned", text(d, "error"))
        check(blob(d, "download-xlsx") == (work / "cli-m.xlsx").read_bytes(), "safety_margin=0.3: the workbook differs")
        margin.clear()

        # 3. Chinese: choosing 中文 re-plans the same file in Chinese.
        r = cli(gpuplan, work, "calc", "team.xlsx", "-o", "cli-zh.xlsx", "--lang", "zh", "--force")
        check(r.returncode == 0, r.stderr)
        before = runs(d)
        Select(d.find_element(By.ID, "lang")).select_by_value("zh")
        check(wait_run(d, before) == "planned", text(d, "error"))
        check(blob(d, "download-xlsx") == (work / "cli-zh.xlsx").read_bytes(), "zh: the workbook differs from the CLI's --lang zh")
        zh_summary = d.execute_script("return window.gpuplanLast.summary")
        check("负载" in zh_summary and zh_summary in (r.stdout + r.stderr), f"zh: the summary differs: {zh_summary!r}")
        check("警告与说明" in d.find_element(By.TAG_NAME, "main").text, "zh: the page's words are not Chinese")
        check("含安全边际的总计" in text(d, "totals") or "总计" in text(d, "totals"), f"zh: totals {text(d, 'totals')!r}")
        if a.shots:
            d.save_screenshot(str(Path(a.shots) / "web-zh.png"))
        Select(d.find_element(By.ID, "lang")).select_by_value("en")
        wait_run(d, before + 1)

        # 4. A bad workbook: the CLI's error text, word for word.
        r = cli(gpuplan, work, "calc", "bad.xlsx", "-o", "bad.plan.xlsx", "--force")
        check(r.returncode == 2, f"bad.xlsx: the CLI exited {r.returncode}")
        state, _ = drop(d, work / "bad.xlsx")
        check(state == "failed", "bad.xlsx was planned")
        check(text(d, "error").strip() == r.stderr.strip(), f"bad.xlsx:\npage: {text(d, 'error')!r}\ncli:  {r.stderr!r}")

        # 5. A file over the CLI's bound: refused before it is read, in the CLI's words.
        r = cli(gpuplan, work, "calc", "huge.xlsx")
        check(r.returncode == 2, f"huge.xlsx: the CLI exited {r.returncode}")
        state, _ = drop(d, work / "huge.xlsx")
        check(state == "failed", "huge.xlsx was read")
        check(text(d, "error").strip() == r.stderr.strip(), f"huge.xlsx:\npage: {text(d, 'error')!r}\ncli:  {r.stderr!r}")

        # 6. 1,000 workloads: the CLI's bytes, and the time.
        r = cli(gpuplan, work, "calc", "thousand.xlsx", "-o", "cli-1000.xlsx", "-q", "--force")
        check(r.returncode == 0, r.stderr)
        state, secs = drop(d, work / "thousand.xlsx", timeout=600)
        check(state == "planned", text(d, "error"))
        check(blob(d, "download-xlsx") == (work / "cli-1000.xlsx").read_bytes(), "1,000 workloads: the workbook differs")
        print(f"check-web: 1,000 workloads planned in the page in {secs:.2f} s (drop to download link); bytes equal the CLI's")

        # 7. The template is gpuplan init's, and a sample the repository's file.
        r = cli(gpuplan, work, "init", "init.xlsx")
        check(r.returncode == 0, f"gpuplan init: {r.stderr}")
        d.find_element(By.ID, "template").click()
        got = downloads / "budget.xlsx"
        WebDriverWait(d, 30).until(lambda _: got.is_file() and got.stat().st_size > 0)
        time.sleep(0.5)  # the download is renamed into place when complete
        check(got.read_bytes() == (work / "init.xlsx").read_bytes(), "the template differs from gpuplan init's")
        d.find_element(By.CSS_SELECTOR, 'button[data-sample="startup.xlsx"]').click()
        got = downloads / "startup.xlsx"
        WebDriverWait(d, 30).until(lambda _: got.is_file() and got.stat().st_size > 0)
        time.sleep(0.5)
        check(got.read_bytes() == (ROOT / "samples" / "startup.xlsx").read_bytes(), "the sample differs from samples/startup.xlsx")
        print("check-web: the template is gpuplan init's, byte for byte, and the sample the repository's")

        # 8. Nothing was requested after the page had loaded.
        check(log.count() == loaded, f"requests after load: {log.paths[loaded:]}")
        print("check-web: no request after the page loaded")
    finally:
        d.quit()
        httpd.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print("check-web: ok")


if __name__ == "__main__":
    main()
