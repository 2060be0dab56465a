"""fluid.metrics (Paddle 1.8): Python-side metrics over fetched numpy values (MetricBase, CompositeMetric,
Precision, Recall, Accuracy, ChunkEvaluator, EditDistance, Auc) and DetectionMAP, which records the
detection_map op twice (this batch; accumulated in persistable states); fluid.evaluator's in-graph
ChunkEvaluator / EditDistance / DetectionMAP (deprecated in 1.8, states updated by the program every run);
fluid.average.WeightedAverage; and fluid.layers.detection.detection_map."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.program import Program, Variable, default_main_program, program_guard
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.detection_infer import _lod
from paddle_compat.engine.ops.detection_map import detection_map_op
from paddle_compat.engine.framework.registry import export

L = "paddle.fluid.layers."


def _layer(name: str):
    return P(L + name)


def _is_numpy(v: Any) -> bool:
    return isinstance(v, (np.ndarray, np.generic))


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.int64)) or (isinstance(v, np.ndarray) and v.shape == (1,))


def _is_number_or_matrix(v: Any) -> bool:
    return _is_number(v) or isinstance(v, np.ndarray)


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise ValueError(msg)


# ------------------------------------------------------------------------------------------------ Python metrics


class MetricBase:
    """Base of the fluid metrics: public attributes are the state; reset() zeroes them by type."""

    def __init__(self, name: Any) -> None:
        self._name = str(name) if name is not None else self.__class__.__name__

    def __str__(self) -> str:
        return self._name

    def _states(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def reset(self) -> None:
        for k, v in self._states().items():
            if isinstance(v, int):
                setattr(self, k, 0)
            elif isinstance(v, float):
                setattr(self, k, 0.0)
            elif isinstance(v, (np.ndarray, np.generic)):
                setattr(self, k, np.zeros_like(v))
            else:
                setattr(self, k, None)

    def get_config(self) -> dict:
        return {"name": self._name, "states": copy.deepcopy(self._states())}

    def update(self, preds: Any, labels: Any) -> None:
        raise NotImplementedError("Should not use it directly, please extend it.")

    def eval(self) -> Any:
        raise NotImplementedError("Should not use it directly, please extend it.")


class CompositeMetric(MetricBase):
    """Several metrics updated with the same (preds, labels); eval() lists their results."""

    def __init__(self, name: Any = None) -> None:
        super().__init__(name)
        self._metrics: list = []

    def add_metric(self, metric: MetricBase) -> None:
        _need(isinstance(metric, MetricBase), "SubMetric should be inherit from MetricBase.")
        self._metrics.append(metric)

    def update(self, preds: Any, labels: Any) -> None:
        for m in self._metrics:
            m.update(preds, labels)

    def eval(self) -> list:
        return [m.eval() for m in self._metrics]


class _BinaryCount(MetricBase):
    """Precision / Recall of binary predictions (rounded to 0 / 1) against 0 / 1 labels."""

    _other = ""  # the second counter: fp (precision) or fn (recall)

    def __init__(self, name: Any = None) -> None:
        super().__init__(name)
        self.tp = 0
        setattr(self, self._other, 0)

    def update(self, preds: Any, labels: Any) -> None:
        _need(_is_numpy(preds), "The 'preds' must be a numpy ndarray.")
        _need(_is_numpy(labels), "The 'labels' must be a numpy ndarray.")
        preds = np.rint(preds).astype("int32")
        for i in range(labels.shape[0]):
            pred, label = preds[i], labels[i]
            if (pred if self._other == "fp" else label) == 1:
                if pred == label:
                    self.tp += 1
                else:
                    setattr(self, self._other, getattr(self, self._other) + 1)

    def eval(self) -> float:
        total = self.tp + getattr(self, self._other)
        return float(self.tp) / total if total != 0 else 0.0


class Precision(_BinaryCount):
    """tp / (tp + fp) over the samples predicted positive."""

    _other = "fp"


class Recall(_BinaryCount):
    """tp / (tp + fn) over the positive samples."""

    _other = "fn"


class Accuracy(MetricBase):
    """Weighted mean of per-batch accuracies: update(value, weight), e.g. weight = the batch size."""

    def __init__(self, name: Any = None) -> None:
        super().__init__(name)
        self.value = 0.0
        self.weight = 0.0

    def update(self, value: Any, weight: Any) -> None:
        _need(_is_number_or_matrix(value), "The 'value' must be a number(int, float) or a numpy ndarray.")
        _need(_is_number(weight), "The 'weight' must be a number(int, float).")
        _need(not weight < 0, "The 'weight' can not be negative")
        self.value += value * weight
        self.weight += weight

    def eval(self) -> Any:
        _need(self.weight != 0, "There is no data in Accuracy Metrics. Please check layers.accuracy output has "
                                "added to Accuracy.")
        return self.value / self.weight


def _float(v: Any) -> float:
    """float() of a number or a one-element array (which Paddle's numpy < 1.20 accepted directly)."""
    return float(np.asarray(v).reshape(-1)[0]) if isinstance(v, np.ndarray) else float(v)


def _chunk_scores(infer: Any, label: Any, correct: Any) -> tuple:
    precision = _float(correct) / infer if infer else 0
    recall = _float(correct) / label if label else 0
    f1 = _float(2 * precision * recall) / (precision + recall) if correct else 0
    return precision, recall, f1


class ChunkEvaluator(MetricBase):
    """Accumulates chunk_eval's counts; eval() -> (precision, recall, f1)."""

    def __init__(self, name: Any = None) -> None:
        super().__init__(name)
        self.num_infer_chunks = 0
        self.num_label_chunks = 0
        self.num_correct_chunks = 0

    def update(self, num_infer_chunks: Any, num_label_chunks: Any, num_correct_chunks: Any) -> None:
        for nm, v in (("num_infer_chunks", num_infer_chunks), ("num_label_chunks", num_label_chunks),
                      ("num_correct_chunks", num_correct_chunks)):
            _need(_is_number_or_matrix(v), f"The '{nm}' must be a number(int) or a numpy ndarray.")
        self.num_infer_chunks += num_infer_chunks
        self.num_label_chunks += num_label_chunks
        self.num_correct_chunks += num_correct_chunks

    def eval(self) -> tuple:
        return _chunk_scores(self.num_infer_chunks, self.num_label_chunks, self.num_correct_chunks)


class EditDistance(MetricBase):
    """Accumulates edit_distance's distances; eval() -> (average distance, instance error rate)."""

    def __init__(self, name: Any) -> None:
        super().__init__(name)
        self.total_distance = 0.0
        self.seq_num = 0
        self.instance_error = 0

    def update(self, distances: Any, seq_num: Any) -> None:
        _need(_is_numpy(distances), "The 'distances' must be a numpy ndarray.")
        _need(_is_number(seq_num), "The 'seq_num' must be a number(int, float).")
        self.seq_num += seq_num
        self.instance_error += seq_num - np.sum(distances == 0)
        self.total_distance += np.sum(distances)

    def eval(self) -> tuple:
        _need(self.seq_num != 0, "There is no data in EditDistance Metric. Please check layers.edit_distance output "
                                 "has been added to EditDistance.")
        return self.total_distance / self.seq_num, self.instance_error / float(self.seq_num)


class Auc(MetricBase):
    """ROC AUC from histograms of the positive-class probability preds[:, 1] (num_thresholds + 1 buckets)."""

    def __init__(self, name: Any, curve: str = "ROC", num_thresholds: int = 4095) -> None:
        super().__init__(name=name)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._stat_pos = [0] * (num_thresholds + 1)
        self._stat_neg = [0] * (num_thresholds + 1)

    def update(self, preds: Any, labels: Any) -> None:
        _need(_is_numpy(labels), "The 'labels' must be a numpy ndarray.")
        _need(_is_numpy(preds), "The 'predictions' must be a numpy ndarray.")
        for i, lbl in enumerate(labels):
            b = int(preds[i, 1] * self._num_thresholds)
            if b > self._num_thresholds:
                raise ValueError(f"Auc.update: prediction {preds[i, 1]} of sample {i} is above 1")
            stat = self._stat_pos if lbl else self._stat_neg
            stat[b] += 1.0

    @staticmethod
    def trapezoid_area(x1: float, x2: float, y1: float, y2: float) -> float:
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def eval(self) -> float:
        pos = neg = auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            pos_prev, neg_prev = pos, neg
            pos += self._stat_pos[idx]
            neg += self._stat_neg[idx]
            auc += self.trapezoid_area(neg, neg_prev, pos, pos_prev)
        return auc / pos / neg if pos > 0.0 and neg > 0.0 else 0.0


for _c in (MetricBase, CompositeMetric, Precision, Recall, Accuracy, ChunkEvaluator, EditDistance, Auc):
    export(_c, f"paddle.fluid.metrics.{_c.__name__}")


class WeightedAverage:
    """fluid.average.WeightedAverage (deprecated for fluid.metrics.Accuracy): add(value, weight); eval()."""

    def __init__(self) -> None:
        warnings.warn(f"The {type(self).__name__} is deprecated, please use fluid.metrics.Accuracy instead.",
                      Warning, stacklevel=2)
        self.reset()

    def reset(self) -> None:
        self.numerator = None
        self.denominator = None

    def add(self, value: Any, weight: Any) -> None:
        _need(_is_number_or_matrix(value), "The 'value' must be a number(int, float) or a numpy ndarray.")
        _need(_is_number(weight), "The 'weight' must be a number(int, float).")
        if self.numerator is None or self.denominator is None:
            self.numerator, self.denominator = value * weight, weight
        else:
            self.numerator += value * weight
            self.denominator += weight

    def eval(self) -> Any:
        _need(self.numerator is not None and self.denominator is not None,
              "There is no data to be averaged in WeightedAverage.")
        return self.numerator / self.denominator


export(WeightedAverage, "paddle.fluid.average.WeightedAverage")


# ------------------------------------------------------------------------------------------------ in-graph


def detection_map(detect_res, label, class_num, background_label=0, overlap_threshold=0.3,
                  evaluate_difficult=True, has_state=None, input_states=None, out_states=None, ap_version="integral"):
    """fluid.layers.detection.detection_map: mAP [1] of LoD detections against LoD ground truth; with
    has_state / input_states / out_states it accumulates over runs (states: see engine/ops/detection_map.py)."""
    api = "fluid.layers.detection_map"
    if ap_version not in ("integral", "11point"):
        raise InvalidArgumentError(f"{api}: ap_version must be 'integral' or '11point', got {ap_version!r}")
    if class_num is None or int(class_num) <= 0:
        raise InvalidArgumentError(f"{api}: class_num must be a positive int, got {class_num!r}")
    st = list(input_states) if input_states is not None else [None, None, None]
    with layer_helper("detection_map"):
        outs = detection_map_op(detect_res, _lod(detect_res, api), label, _lod(label, api), has_state, st[0], st[1],
                                st[2], int(class_num), int(background_label), float(overlap_threshold),
                                bool(evaluate_difficult), ap_version)
        if out_states is not None:
            for dst, src in zip(out_states, outs[1:]):
                _layer("assign")(src, output=dst)
    return outs[0]


export(detection_map, "paddle.fluid.layers.detection.detection_map", "paddle.fluid.layers.detection_map")


def _state(name: str, suffix: str, dtype: str, shape: list, value: float = 0.0) -> Variable:
    """A persistable variable `<name>_N_<suffix>` that the startup program fills."""
    from paddle_compat.engine.static.param import create_global_var

    return create_global_var(shape, value, dtype, persistable=True,
                             name="_".join([unique_name.generate(name), suffix]))


class _DetectionMAPGraph:
    """The program part both DetectionMAPs share: this batch's mAP and the accumulated one."""

    def _build(self, input, gt_label, gt_box, gt_difficult, class_num, background_label, overlap_threshold,  # noqa: A002
               evaluate_difficult, ap_version, prefix: str) -> list:
        gt_label = _layer("cast")(gt_label, gt_box.dtype)
        parts = [gt_label, _layer("cast")(gt_difficult, gt_box.dtype), gt_box] if gt_difficult is not None \
            else [gt_label, gt_box]
        label = _layer("concat")(parts, axis=1)
        kw = dict(class_num=class_num, background_label=background_label, overlap_threshold=overlap_threshold,
                  evaluate_difficult=evaluate_difficult, ap_version=ap_version)
        self.cur_map = detection_map(input, label, **kw)
        states = [_state(prefix, "accum_pos_count", "int32", [int(class_num), 1]),
                  _state(prefix, "accum_true_pos", "float32", [0, 3]),
                  _state(prefix, "accum_false_pos", "float32", [0, 3])]
        self.has_state = _state(prefix, "has_state", "int32", [1])
        self.accum_map = detection_map(input, label, has_state=self.has_state, input_states=states,
                                       out_states=states, **kw)
        _layer("fill_constant")([1], "int32", 1, out=self.has_state)
        return states

    def get_map_var(self) -> tuple:
        return self.cur_map, self.accum_map

    def reset(self, executor: Any, reset_program: Any = None) -> None:
        """Start accumulating afresh: a program that sets has_state to 0."""
        _fill_persistables(executor, [self.has_state], reset_program)


def _fill_persistables(executor: Any, states: list, program: Any = None, value: float = 0.0) -> None:
    program = program if program is not None else Program()
    with program_guard(program):
        for v in states:
            g = program.global_block().create_var(name=v.name, shape=v.shape, dtype=v.dtype, persistable=True)
            _layer("fill_constant")(list(v.shape), v.dtype, value, out=g)
    executor.run(program)


class DetectionMAP(_DetectionMAPGraph):
    """fluid.metrics.DetectionMAP: get_map_var() -> (this batch's mAP, the mAP accumulated since reset)."""

    def __init__(self, input, gt_label, gt_box, gt_difficult=None, class_num=None, background_label=0,  # noqa: A002
                 overlap_threshold=0.5, evaluate_difficult=True, ap_version="integral") -> None:
        self._build(input, gt_label, gt_box, gt_difficult, class_num, background_label, overlap_threshold,
                    evaluate_difficult, ap_version, unique_name.generate("map_eval"))


export(DetectionMAP, "paddle.fluid.metrics.DetectionMAP")


# --- fluid.evaluator: states accumulated by the program; eval() runs a small program over them ----------------


class Evaluator:
    """Base of the deprecated fluid.evaluator classes: persistable `states`, reset(), eval()."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        warnings.warn(f"The {type(self).__name__} is deprecated, because maintain a modified program inside "
                      f"evaluator cause bug easily, please use fluid.metrics.{type(self).__name__} instead.",
                      Warning, stacklevel=3)
        self.states: list = []
        self.metrics: list = []
        self._name = kwargs.get("name") or unique_name.generate(name)
        if default_main_program().current_block().idx != 0:
            raise ValueError("You can only invoke Evaluator in root block")

    def _create_state(self, suffix: str, dtype: str, shape: list) -> Variable:
        v = _state(self._name, suffix, dtype, shape)
        self.states.append(v)
        return v

    def _accumulate(self, state: Variable, value: Variable) -> None:
        _layer("assign")(_layer("elementwise_add")(state, _layer("cast")(value, state.dtype)), output=state)

    def reset(self, executor: Any, reset_program: Any = None) -> None:
        _fill_persistables(executor, self.states, reset_program)

    def eval(self, executor: Any, eval_program: Any = None) -> Any:
        raise NotImplementedError()

    def _fetch_states(self, executor: Any, eval_program: Any, build=None) -> list:
        program = eval_program if eval_program is not None else Program()
        with program_guard(program):
            vs = [program.global_block().create_var(name=v.name, shape=v.shape, dtype=v.dtype, persistable=True)
                  for v in self.states]
            fetch = build(*vs) if build is not None else vs
        return executor.run(program, fetch_list=list(fetch))


class ChunkEvaluatorGraph(Evaluator):
    """fluid.evaluator.ChunkEvaluator: chunk_eval's counts summed in the program; eval() ->
    (precision, recall, f1) as float32 arrays [1]."""

    def __init__(self, input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None) -> None:  # noqa: A002
        super().__init__("chunk_eval")
        counts = [self._create_state(s, "int64", [1])
                  for s in ("num_infer_chunks", "num_label_chunks", "num_correct_chunks")]
        self.num_infer_chunks, self.num_label_chunks, self.num_correct_chunks = counts
        res = _layer("chunk_eval")(input=input, label=label, chunk_scheme=chunk_scheme,
                                   num_chunk_types=num_chunk_types, excluded_chunk_types=excluded_chunk_types)
        for state, value in zip(counts, res[3:]):
            self._accumulate(state, value)
        self.metrics.extend(res[:3])

    def eval(self, executor: Any, eval_program: Any = None) -> tuple:
        infer, label, correct = (int(np.asarray(v).reshape(-1)[0]) for v in self._fetch_states(executor, eval_program))
        return tuple(np.array([v], dtype="float32") for v in _chunk_scores(infer, label, correct))


class EditDistanceGraph(Evaluator):
    """fluid.evaluator.EditDistance: total distance, sequence count and wrong sequences summed in the program;
    eval() -> (average distance, instance error rate) as arrays [1]."""

    def __init__(self, input, label, ignored_tokens=None, **kwargs: Any) -> None:  # noqa: A002
        super().__init__("edit_distance", **kwargs)
        self.total_distance = self._create_state("total_distance", "float32", [1])
        self.seq_num = self._create_state("seq_num", "int64", [1])
        self.instance_error = self._create_state("instance_error", "int64", [1])
        distances, seq_num = _layer("edit_distance")(input=input, label=label, ignored_tokens=ignored_tokens)
        zero = _layer("fill_constant")([1], "float32", 0.0)
        right = _layer("reduce_sum")(_layer("cast")(_layer("equal")(distances, zero), "int64"))
        errors = _layer("elementwise_sub")(seq_num, right)
        total = _layer("reduce_sum")(distances)
        for state, value in ((self.total_distance, total), (self.seq_num, seq_num), (self.instance_error, errors)):
            self._accumulate(state, value)
        self.metrics.extend([total, errors])

    def eval(self, executor: Any, eval_program: Any = None) -> tuple:
        def build(total, seq_num, errors):
            n = _layer("cast")(seq_num, "float32")
            return (_layer("elementwise_div")(total, n),
                    _layer("elementwise_div")(_layer("cast")(errors, "float32"), n))

        avg, err = self._fetch_states(executor, eval_program, build)
        return np.array(avg), np.array(err)


class DetectionMAPGraph(_DetectionMAPGraph, Evaluator):
    """fluid.evaluator.DetectionMAP: as fluid.metrics.DetectionMAP (get_map_var, reset)."""

    def __init__(self, input, gt_label, gt_box, gt_difficult=None, class_num=None, background_label=0,  # noqa: A002
                 overlap_threshold=0.5, evaluate_difficult=True, ap_version="integral") -> None:
        Evaluator.__init__(self, "map_eval")
        self.states = self._build(input, gt_label, gt_box, gt_difficult, class_num, background_label,
                                  overlap_threshold, evaluate_difficult, ap_version, self._name)

    reset = _DetectionMAPGraph.reset


for _c, _n in ((ChunkEvaluatorGraph, "ChunkEvaluator"), (EditDistanceGraph, "EditDistance"),
               (DetectionMAPGraph, "DetectionMAP")):
    _c.__name__ = _c.__qualname__ = _n
    export(_c, f"paddle.fluid.evaluator.{_n}")

export(Evaluator, "paddle.fluid.evaluator.Evaluator")  # the base class custom evaluators subclass
