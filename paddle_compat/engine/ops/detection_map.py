"""The detection_map op (Paddle 1.8's DetectionMAPOpKernel): mean average precision of detections
[M, 6] (label, score, xmin, ymin, xmax, ymax; LoD per image) against ground truth [G, 5] (label, box) or
[G, 6] (label, difficult, box), optionally accumulated over batches through state tensors.

Per image and class, detections are taken by descending score, clipped to [0, 1], and matched to the unvisited
ground-truth box of highest Jaccard overlap (> overlap_threshold): true positive, else false positive; with
evaluate_difficult=False a match to a difficult box counts neither way and difficult boxes do not count as
positives. AP per class is "integral" (sum of precision x recall steps) or "11point"; mAP averages over the
classes that have positives and detections. Kept quirks of the kernel: a class is skipped when its number of
positives equals `background_label` (it compares the count, not the label), and with state every class
0..class_num-1 has a positive count (zero included).

State (our layout; Paddle keeps LoD-per-class tensors): pos_count [class_num, 1] int32; true_pos / false_pos
[K, 3] float32 rows (class, score, flag) in class order, each class's rows in the order they were recorded."""

from __future__ import annotations

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import op


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _per_image(rows: np.ndarray, offs: np.ndarray, build):
    return [build(rows[offs[i]:offs[i + 1]]) for i in range(len(offs) - 1)]


def _gt_of(rows: np.ndarray) -> dict:
    """{label: [(box, difficult)]} of one image."""
    out: dict = {}
    for r in rows:
        if rows.shape[1] == 6:
            out.setdefault(int(r[0]), []).append((r[2:6], abs(float(r[1])) >= 1e-6))
        else:
            out.setdefault(int(r[0]), []).append((r[1:5], False))
    return out


def _det_of(rows: np.ndarray) -> dict:
    """{label: [(score, box)]} of one image."""
    out: dict = {}
    for r in rows:
        out.setdefault(int(r[0]), []).append((float(r[1]), r[2:6].copy()))
    return out


def _average_precision(tp: list, fp: list, num_pos: int, ap_type: str) -> float:
    order = sorted(range(len(tp)), key=lambda i: -tp[i][0])  # stable, descending score
    tp_sum = np.cumsum([tp[i][1] for i in order])
    order = sorted(range(len(fp)), key=lambda i: -fp[i][0])
    fp_sum = np.cumsum([fp[i][1] for i in order])
    n = len(tp_sum)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = (tp_sum / (tp_sum + fp_sum)).astype(np.float32) if n else np.zeros(0, np.float32)
        recall = (tp_sum / np.float32(num_pos)).astype(np.float32) if n else np.zeros(0, np.float32)
    if ap_type == "11point":
        maxp = [0.0] * 11
        start = n - 1
        for j in range(10, -1, -1):
            for i in range(start, -1, -1):
                if recall[i] < j / 10.0:
                    start = i
                    if j > 0:
                        maxp[j - 1] = maxp[j]
                    break
                maxp[j] = max(maxp[j], float(precision[i]))
        return sum(m / 11 for m in reversed(maxp))
    ap, prev = np.float32(0.0), np.float32(0.0)
    for i in range(n):
        if abs(recall[i] - prev) > 1e-6:
            ap += precision[i] * abs(recall[i] - prev)
        prev = recall[i]
    return float(ap)


def _map_infer(detect_res, det_offs, label, label_offs, has_state, pos_count, true_pos, false_pos, class_num,
               background_label, overlap_threshold, evaluate_difficult, ap_type):
    f32 = _dt.to_dtype("float32")
    return [Spec((1,), f32), Spec((class_num, 1), _dt.to_dtype("int32")), Spec((-1, 3), f32), Spec((-1, 3), f32)]


@op("detection_map", differentiable=False, infer=_map_infer)
def detection_map_op(detect_res, det_offs, label, label_offs, has_state, pos_count, true_pos, false_pos, class_num,
                     background_label, overlap_threshold, evaluate_difficult, ap_type):
    """-> (MAP [1], AccumPosCount [class_num, 1] int32, AccumTruePos [K, 3], AccumFalsePos [K, 3])."""
    dev = detect_res.device
    det = detect_res.detach().cpu().float().numpy()
    lab = label.detach().cpu().float().numpy()
    gts = _per_image(lab, label_offs.cpu().numpy(), _gt_of)
    dets = _per_image(det, det_offs.cpu().numpy(), _det_of)
    counts: dict = {}
    tps: dict = {}
    fps: dict = {}
    if pos_count is not None and has_state is not None and int(has_state.reshape(-1)[0]):
        for c, v in enumerate(pos_count.reshape(-1)[:class_num].tolist()):
            counts[c] = int(v)
        for state, acc in ((true_pos, tps), (false_pos, fps)):
            for c, s, f in state.detach().cpu().numpy().reshape(-1, 3).tolist():
                acc.setdefault(int(c), []).append((s, int(f)))
    for img in gts:
        for c, boxes in img.items():
            n = len(boxes) if evaluate_difficult else sum(1 for _, d in boxes if not d)
            if n:
                counts[c] = counts.get(c, 0) + n
    for img_gt, img_det in zip(gts, dets):
        for c, preds in img_det.items():
            tp, fp = tps.setdefault(c, []), fps.setdefault(c, [])
            matched = img_gt.get(c)
            if not matched:
                tp.extend((s, 0) for s, _ in preds)
                fp.extend((s, 1) for s, _ in preds)
                continue
            visited = [False] * len(matched)
            for s, box in sorted(preds, key=lambda p: -p[0]):
                np.clip(box, 0.0, 1.0, out=box)
                ious = [_iou(box, g) for g, _ in matched]
                j = int(np.argmax(ious))
                if ious[j] > overlap_threshold:
                    if evaluate_difficult or not matched[j][1]:
                        hit = not visited[j]
                        visited[j] = True
                        tp.append((s, int(hit)))
                        fp.append((s, int(not hit)))
                else:
                    tp.append((s, 0))
                    fp.append((s, 1))
    total, count = 0.0, 0
    for c in sorted(counts):
        if counts[c] == background_label or c not in tps:
            continue
        total += _average_precision(tps[c], fps.get(c, []), counts[c], ap_type)
        count += 1
    m = total / count if count else 0.0

    def rows(acc: dict) -> torch.Tensor:
        r = [(c, s, f) for c in range(class_num) for s, f in acc.get(c, [])]
        return torch.tensor(r, dtype=torch.float32, device=dev).reshape(-1, 3)

    pc = torch.tensor([counts.get(c, 0) for c in range(class_num)], dtype=torch.int32, device=dev).reshape(-1, 1)
    return torch.tensor([m], dtype=torch.float32, device=dev), pc, rows(tps), rows(fps)
