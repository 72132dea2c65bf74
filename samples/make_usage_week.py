"""Writes a week of GPU usage for the seed-001 team sample (samples/team.xlsx), as
`nvidia-smi --query-gpu=timestamp,index,uuid,name,utilization.gpu,memory.used,memory.total
--format=csv -l 300` would log it on the team's machine, and the map of its GPUs to workloads.

    python3 samples/make_usage_week.py      # from the repository root

The week (Monday 2026-11-02 to Sunday 2026-11-08, a sample every 5 minutes):
- GPU 0, the A10 of qa-api: serving 09:00-19:00 every day at 70 %, 17,000 MiB (16,500 idle,
  the model stays loaded): 70 active hours.
- GPU 1, an RTX 4090 for lora-finetune: one run, Tuesday 10:00-18:00 at 95 %, 20,000 MiB.
- GPU 2, an RTX 4090 on spot for preprocess: one run, Wednesday 14:00-18:00 at 60 %, 6,000 MiB.
"""
import datetime
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
START = datetime.datetime(2026, 11, 2)
STEP = datetime.timedelta(minutes=5)
GPUS = [
    (0, "GPU-0a10-0000-0000-0000-000000000000", "NVIDIA A10", 23028),
    (1, "GPU-4090-1111-1111-1111-111111111111", "NVIDIA GeForce RTX 4090", 24564),
    (2, "GPU-4090-2222-2222-2222-222222222222", "NVIDIA GeForce RTX 4090", 24564),
]


def sample(index, t):
    """(utilization %, memory MiB) of GPU `index` at time t."""
    day, hour = (t - START).days, t.hour
    if index == 0:
        return (70, 17000) if 9 <= hour < 19 else (0, 16500)
    if index == 1:
        return (95, 20000) if day == 1 and 10 <= hour < 18 else (0, 300)
    return (60, 6000) if day == 2 and 14 <= hour < 18 else (0, 300)


lines = ["timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"]
t = START
while t < START + datetime.timedelta(days=7):
    for index, uuid, name, total in GPUS:
        u, m = sample(index, t)
        stamp = t.strftime("%Y/%m/%d %H:%M:%S.000")
        lines.append(f"{stamp}, {index}, {uuid}, {name}, {u} %, {m} MiB, {total} MiB")
    t += STEP
(HERE / "team-week.smi.csv").write_text("\n".join(lines) + "\n")
(HERE / "team-week.map.csv").write_text(
    "gpu_id,workload\n0,qa-api\n1,lora-finetune\n2,preprocess\n"
)
