#!/usr/bin/env bash
# Checks the Kubernetes manifests of deploy/k8s: kubernetes-validate
# --strict against the schemas it ships (installed in a virtual
# environment under target/ if missing), then the fields the shards rely
# on, which a schema does not check (enum values, how the index reaches
# --shard): completionMode Indexed, --shard INDEX/COUNT with
# COUNT = completions, the index from JOB_COMPLETION_INDEX, every shard
# merged, the image of this version, and one volume claim for all.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${K8S_VENV:-${CARGO_TARGET_DIR:-target}/k8s-venv}
if [[ ! -x $venv/bin/kubernetes-validate ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q kubernetes-validate
fi
manifests=(deploy/k8s/*.yaml)
for m in "${manifests[@]}"; do
    "$venv/bin/kubernetes-validate" --strict "$m"
done
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml)
"$venv/bin/python" - "$version" "${manifests[@]}" <<'PY'
import re, sys
import yaml

version, files = sys.argv[1], sys.argv[2:]
docs = [d for f in files for d in yaml.safe_load_all(open(f)) if d]
jobs = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Job"}
claims = {d["metadata"]["name"] for d in docs if d["kind"] == "PersistentVolumeClaim"}
fail = []
def check(ok, what):
    if not ok:
        fail.append(what)

def indexed(name, command, folder):
    """The Indexed Job `name` running `cabra COMMAND` in shards into
    FOLDER/shard-INDEX, and its merge `name-merge`; returns the count."""
    shards = jobs.get(name)
    merge = jobs.get(f"{name}-merge")
    check(shards is not None and merge is not None, f"jobs {name} and {name}-merge")
    if shards is None or merge is None:
        return 0
    spec = shards["spec"]
    check(spec.get("completionMode") == "Indexed", f"{name}: completionMode: Indexed")
    count = spec.get("completions")
    (c,) = spec["template"]["spec"]["containers"]
    env = {e["name"]: e for e in c.get("env", [])}
    check(
        env.get("JOB_COMPLETION_INDEX", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        == "metadata.annotations['batch.kubernetes.io/job-completion-index']",
        f"{name}: JOB_COMPLETION_INDEX from the completion index annotation",
    )
    args = c.get("args", [])
    check(args[:1] == [command], f"{name}: the shard runs cabra {command}")
    check(f"--shard=$(JOB_COMPLETION_INDEX)/{count}" in args, f"{name}: --shard=$(JOB_COMPLETION_INDEX)/{count}")
    check(f"--out={folder}/shard-$(JOB_COMPLETION_INDEX)" in args, f"{name}: --out per index")
    m_args = merge["spec"]["template"]["spec"]["containers"][0]["args"]
    check(m_args[:1] == [command], f"{name}-merge: runs cabra {command}")
    merged = m_args[m_args.index("--merge") + 1:]
    check(merged == [f"{folder}/shard-{i}" for i in range(count)], f"{name}-merge reads every shard")
    for job in (shards, merge):
        pod = job["spec"]["template"]["spec"]
        check(pod.get("restartPolicy") == "Never", "restartPolicy: Never")
        for k in pod["containers"]:
            check(k["image"] == f"ghcr.io/OWNER/cabra:{version}", f"image of version {version}")
            check({"requests", "limits"} <= set(k.get("resources", {})), "resources requests and limits")
        vols = [v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"]]
        check(vols and all(v in claims for v in vols), "a declared PersistentVolumeClaim")
    return count

count = indexed("cabra-match", "match", "/data/match")
analyze = indexed("cabra-analyze", "analyze", "/data/analyze")
if fail:
    sys.exit("k8s-check: wrong: " + "; ".join(fail))
print(f"k8s-check: ok: {len(files)} manifests: a match in {count} indexed shards, "
      f"an analysis in {analyze}, and their merges")
PY
