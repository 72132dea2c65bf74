"""Writes the usage-log fixtures of tests/usage.rs: one known week in each format gpuplan reads.

    python3 scripts/make_usage_fixtures.py      # from the repository root

The shape, the same in every file: 7 days from 2026-11-02 00:00, a sample every 60 s on two GPUs
of host node1 (7 × 1,440 = 10,080 samples per GPU).
- GPU 0 is busy from 09:00 to 18:59 each day (the samples at minutes 540 to 1139 of the day: 600
  samples, 10 hours) at 80 % with 40 GiB (40,960 MiB) used, and idle otherwise: 0 % and 2 GiB.
- GPU 1 is idle all week: 0 % and 1 GiB.
Each sample stands for the minute that follows it, so GPU 0 is active 600 × 60 s = 10 h a day,
70 h in the week, and the logs cover 10,080 minutes = 7 days exactly.

Files (tests/fixtures/usage/):
- node1.smi.csv      nvidia-smi --query-gpu=timestamp,index,uuid,name,utilization.gpu,memory.used,memory.total --format=csv -l 60
- node1.nounits.csv  nvidia-smi --query-gpu=index,utilization.gpu,memory.used,timestamp --format=csv,nounits -l 60
- node1.dmon.log     nvidia-smi dmon -s um -o DT -d 60 (its header written again at each midnight)
- node1.plain.csv    timestamp,gpu,utilization,memory_used_mib with ISO 8601 times
- map.csv            gpu_id,workload: GPU 0 ran lora-finetune, GPU 1 qa-api (workloads of the
                     test workbook, tests/common team())
"""
import datetime
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "usage"
START = datetime.datetime(2026, 11, 2)
DAYS = 7
UUID = ["GPU-5f1c3a2e-8d4b-4c6f-9a1e-2b7d3c4e5f60", "GPU-a17e9b04-3c52-4d8e-b6f1-0e9d8c7b6a51"]
NAME = "NVIDIA A100-SXM4-80GB"
TOTAL = 81920
# nvidia-smi stamps each GPU's row a few milliseconds apart; the offsets stay the same each minute.
MS = [250, 263]


def samples():
    """(time, gpu, utilization %, memory used MiB) in the order the tools write them."""
    for minute in range(DAYS * 24 * 60):
        t = START + datetime.timedelta(minutes=minute)
        busy = 540 <= minute % 1440 < 1140
        yield t, 0, (80, 40960) if busy else (0, 2048)
        yield t, 1, (0, 1024)


def write(name, lines):
    (OUT / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def smi():
    yield "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"
    for t, g, (u, m) in samples():
        stamp = t.strftime("%Y/%m/%d %H:%M:%S") + f".{MS[g]:03d}"
        yield f"{stamp}, {g}, {UUID[g]}, {NAME}, {u} %, {m} MiB, {TOTAL} MiB"


def nounits():
    yield "index, utilization.gpu, memory.used, timestamp"
    for t, g, (u, m) in samples():
        stamp = t.strftime("%Y/%m/%d %H:%M:%S") + f".{MS[g]:03d}"
        yield f"{g}, {u}, {m}, {stamp}"


def dmon():
    header = [
        "#Date       Time        gpu     sm    mem    enc    dec    jpg    ofa     fb   bar1   ccpm ",
        "#YYYYMMDD   HH:MM:SS    Idx      %      %      %      %      %      %     MB     MB     MB ",
    ]
    for t, g, (u, m) in samples():
        if g == 0 and t.hour == 0 and t.minute == 0:
            yield from header
        bandwidth = 35 if u else 0
        yield (f" {t.strftime('%Y%m%d')}   {t.strftime('%H:%M:%S')} {g:>6} {u:>6} {bandwidth:>6}"
               f" {0:>6} {0:>6} {0:>6} {0:>6} {m:>6} {5:>6} {0:>6} ")


def plain():
    yield "timestamp,gpu,utilization,memory_used_mib"
    for t, g, (u, m) in samples():
        yield f"{t.strftime('%Y-%m-%dT%H:%M:%SZ')},{g},{u},{m}"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    write("node1.smi.csv", smi())
    write("node1.nounits.csv", nounits())
    write("node1.dmon.log", dmon())
    write("node1.plain.csv", plain())
    write("map.csv", ["gpu_id,workload", "0,lora-finetune", "1,qa-api"])


if __name__ == "__main__":
    main()
