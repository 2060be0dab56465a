"""paddle.metric: Metric base, Accuracy, Precision, Recall, Auc (host-side accumulation in numpy, as Paddle)."""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from paddle_compat.engine.framework.registry import export


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


class Metric(abc.ABC):
    def __init__(self) -> None:
        pass

    @abc.abstractmethod
    def reset(self) -> None:
        raise NotImplementedError(f"function 'reset' not implemented in {type(self).__name__}.")

    @abc.abstractmethod
    def update(self, *args: Any) -> Any:
        raise NotImplementedError(f"function 'update' not implemented in {type(self).__name__}.")

    @abc.abstractmethod
    def accumulate(self) -> Any:
        raise NotImplementedError(f"function 'accumulate' not implemented in {type(self).__name__}.")

    @abc.abstractmethod
    def name(self) -> Any:
        raise NotImplementedError(f"function 'name' not implemented in {type(self).__name__}.")

    def compute(self, *args: Any) -> Any:
        return args


class Accuracy(Metric):
    """compute: top-maxk predictions (stable descending sort) compared with the label -> float [N, maxk]
    correctness; update: per-k accuracy of the batch, accumulated into totals."""

    def __init__(self, topk: Any = (1,), name: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.topk = tuple(topk) if isinstance(topk, (list, tuple)) else (topk,)
        self.maxk = max(self.topk)
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in self.topk] if self.maxk != 1 else [name]
        self.reset()

    def compute(self, pred: Any, label: Any, *args: Any) -> Any:
        """With Paddle ops, so that paddle.Model records it into its static programs too."""
        from paddle_compat.engine.framework.lookup import P

        if not hasattr(pred, "shape") or isinstance(pred, np.ndarray):
            pred = P("to_tensor")(np.asarray(pred))
        if not hasattr(label, "shape") or isinstance(label, np.ndarray):
            label = P("to_tensor")(np.asarray(label))
        order = P("argsort")(pred, axis=-1, descending=True)
        order = P("slice")(order, axes=[len(pred.shape) - 1], starts=[0], ends=[self.maxk])
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            label = P("reshape")(label, [-1, 1])
        elif label.shape[-1] != 1:
            label = P("argmax")(label, axis=-1, keepdim=True)
        return P("cast")(P("equal")(order, P("cast")(label, order.dtype)), "float32")

    def update(self, correct: Any, *args: Any) -> Any:
        correct = _np(correct)
        num_samples = int(np.prod(np.array(correct.shape[:-1])))
        accs = []
        for i, k in enumerate(self.topk):
            num_corrects = float(correct[..., :k].sum())
            accs.append(num_corrects / num_samples if num_samples else 0.0)
            self.total[i] += num_corrects
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> Any:
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self) -> list:
        return self._name


class Precision(Metric):
    """Binary precision: predictions rounded at 0.5; tp / (tp + fp)."""

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.tp = self.fp = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        p = np.floor(_np(preds).reshape(-1) + 0.5).astype("int32")
        lab = _np(labels).reshape(-1)
        if p.shape[0] != lab.shape[0]:
            raise ValueError(f"paddle.metric.Precision.update: preds ({p.shape[0]}) and labels ({lab.shape[0]}) "
                             "must have the same number of samples")
        self.tp += int(np.sum((p == 1) & (lab == 1)))
        self.fp += int(np.sum((p == 1) & (lab != 1)))

    def reset(self) -> None:
        self.tp = self.fp = 0

    def accumulate(self) -> float:
        ap = self.tp + self.fp
        return float(self.tp) / ap if ap != 0 else 0.0

    def name(self) -> str:
        return self._name


class Recall(Metric):
    """Binary recall: tp / (tp + fn)."""

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.tp = self.fn = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        p = np.floor(_np(preds).reshape(-1) + 0.5).astype("int32")
        lab = _np(labels).reshape(-1)
        if p.shape[0] != lab.shape[0]:
            raise ValueError(f"paddle.metric.Recall.update: preds ({p.shape[0]}) and labels ({lab.shape[0]}) "
                             "must have the same number of samples")
        self.tp += int(np.sum((p == 1) & (lab == 1)))
        self.fn += int(np.sum((p != 1) & (lab == 1)))

    def reset(self) -> None:
        self.tp = self.fn = 0

    def accumulate(self) -> float:
        recall = self.tp + self.fn
        return float(self.tp) / recall if recall != 0 else 0.0

    def name(self) -> str:
        return self._name


class Auc(Metric):
    """ROC AUC from `num_thresholds + 1` histogram bins of the positive-class probability (preds[:, 1])."""

    def __init__(self, curve: str = "ROC", num_thresholds: int = 4095, name: str = "auc", *args: Any,
                 **kwargs: Any) -> None:
        super().__init__()
        if curve != "ROC":
            raise ValueError(f"paddle.metric.Auc: only curve='ROC' is supported, got {curve!r}")
        self._curve, self._num_thresholds, self._name = curve, num_thresholds, name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        p, lab = _np(preds), _np(labels).reshape(-1)
        if p.ndim != 2 or p.shape[1] < 2:
            raise ValueError(f"paddle.metric.Auc.update: preds should be [N, 2] probabilities, got shape {p.shape}")
        for i, label in enumerate(lab):
            idx = int(p[i, 1] * self._num_thresholds)
            if label:
                self._stat_pos[idx] += 1.0
            else:
                self._stat_neg[idx] += 1.0

    def reset(self) -> None:
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def accumulate(self) -> float:
        tot_pos = tot_neg = auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            pp, pn = tot_pos, tot_neg
            tot_pos += self._stat_pos[idx]
            tot_neg += self._stat_neg[idx]
            auc += abs(tot_neg - pn) * (tot_pos + pp) / 2.0
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0

    def name(self) -> str:
        return self._name


for _cls in (Metric, Accuracy, Precision, Recall, Auc):
    export(_cls, f"paddle.metric.{_cls.__name__}")
