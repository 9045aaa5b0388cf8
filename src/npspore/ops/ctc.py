"""Connectionist temporal classification, as ``mindspore.ops``: the ``CTCLoss`` primitive (logits ``(T, B, C)``
with the blank last, sparse labels), computed as MindSpore 2.10's CPU kernel computes it.

Written over ops of the table, so it runs eagerly and compiled and is differentiable: the forward variables
``alpha`` of the extended label sequence (a blank before, between and after the labels) are computed in log
space step by step (``_log_likelihood``), a step past a sequence's length leaving them as they are. Labels
``>= num_classes - 1`` are dropped from the end of a sequence, as MindSpore drops them; a sequence left with
no label has MindSpore's likelihood ``y_0 ... y_{T-2} (1 + y_{T-1})`` of the blank (its kernel's backward
variables start from both last steps). The gradient output is MindSpore's ``softmax(x) - occupancy``: the
occupancy is the derivative of the log-likelihood with respect to the log-probabilities (``grad`` of the same
composition), zero past a sequence's length and for an impossible alignment, whose loss is ``inf``.
"""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..grad import grad
from . import functional as F
from .array_functional import gather_elements, scatter_nd
from .eager import run
from .primitives import Primitive

__all__ = ["CTCLoss"]

_FLOOR = -1e30   # log(0) kept finite, so no inf - inf reaches a gradient


def _log_sum(terms: tuple) -> Tensor:
    """``log(sum(exp(terms)))`` elementwise, without overflow."""
    top = terms[0]
    for term in terms[1:]:
        top = F.maximum(top, term)
    top = run("stop_gradient", top)
    total = F.exp(terms[0] - top)
    for term in terms[1:]:
        total = total + F.exp(term - top)
    return top + F.log(total)


def _shifted(alpha: Tensor, by: int) -> Tensor:
    """``alpha (B, S)`` moved ``by`` states to the right, the floor coming in."""
    return F.concat((F.zeros_like(alpha[:, :by]) + _FLOOR, alpha[:, :-by]), axis=1)


def _log_likelihood(log_probs: Tensor, labels: Tensor, label_lengths: Tensor, input_lengths: Tensor,
                    blank: int) -> Tensor:
    """``(B,)`` log-probabilities of the label sequences under ``log_probs (T, B, C)``: ``labels (B, L)`` int32,
    of which the first ``label_lengths (B,)`` count, over the first ``input_lengths`` steps. Repeated labels
    need a blank between them; an empty sequence has MindSpore's likelihood (the module's docstring)."""
    steps, batch, _ = log_probs.shape
    width = labels.shape[1]
    states = 2 * width + 1
    extended = F.concat((F.reshape(F.stack((F.full((batch, width), blank, dtype=mstype.int32), labels), axis=2),
                                   (batch, 2 * width)), F.full((batch, 1), blank, dtype=mstype.int32)), axis=1)
    state = F.expand_dims(Tensor(list(range(states)), mstype.int32), 0)
    used = F.less(state, F.expand_dims(2 * label_lengths + 1, 1))                             # (B, S)
    before = F.concat((F.full((batch, 2), blank, dtype=mstype.int32), extended[:, :-2]), axis=1)
    skips = F.logical_and(F.not_equal(extended, blank), F.not_equal(extended, before))
    emitted = gather_elements(log_probs, 2, F.broadcast_to(F.expand_dims(extended, 0), (steps, batch, states)))
    floor = F.zeros_like(emitted[0]) + _FLOOR
    alpha = F.where(F.logical_and(F.less(state, 2), used), emitted[0], floor)
    blanks = emitted[0][:, 0]                      # the empty sequence: log y_0 ... y_{T-2} of the blank
    last_blank = blanks
    for step in range(1, steps):
        moved = _log_sum((alpha, _shifted(alpha, 1), F.where(skips, _shifted(alpha, 2), floor))) + emitted[step]
        running = F.less(step, input_lengths)
        alpha = F.where(F.expand_dims(running, 1), F.where(used, moved, floor), alpha)
        blanks = F.where(F.less(step, input_lengths - 1), blanks + emitted[step][:, 0], blanks)
        last_blank = F.where(running, emitted[step][:, 0], last_blank)
    last = F.expand_dims(2 * label_lengths, 1)
    ended = F.where(F.logical_or(F.equal(state, last), F.equal(state, last - 1)), alpha, floor)
    top = run("stop_gradient", F.reduce_max(ended, 1, keep_dims=True))
    labelled = F.squeeze(top, 1) + F.log(F.reduce_sum(F.exp(ended - top), 1))
    quirk = blanks + F.where(F.greater(input_lengths, 1), F.log(1.0 + F.exp(last_blank)), 0.0)
    return F.where(F.equal(label_lengths, 0), quirk, labelled)


def _summed_log_likelihood(log_probs, labels, label_lengths, input_lengths, blank):
    return _log_likelihood(log_probs, labels, label_lengths, input_lengths, blank).sum()



def _ctc_loss(logits: Tensor, labels_indices: Tensor, labels_values: Tensor,
              sequence_length: Tensor) -> tuple[Tensor, Tensor]:
    """The ``(B,)`` CTC losses of ``logits (T, B, C)`` for the sparse labels, and MindSpore's gradient."""
    steps, batch, classes = logits.shape
    count = labels_indices.shape[0]
    values = F.cast(labels_values, mstype.int32)
    kept = F.cast(F.less(values, classes - 1), mstype.int32)           # labels >= C - 1 are dropped
    indices = F.cast(labels_indices, mstype.int64)
    width = max(count, 1)
    labels = scatter_nd(indices, values * kept, (batch, width)) if count else F.zeros((batch, 1), mstype.int32)
    label_lengths = scatter_nd(indices[:, :1], kept, (batch,)) if count else F.zeros((batch,), mstype.int32)
    input_lengths = F.cast(sequence_length, mstype.int32)
    log_probs = F.log_softmax(logits, -1)
    arguments = (log_probs, labels, label_lengths, input_lengths, classes - 1)
    likelihood = _log_likelihood(*arguments)
    possible = F.greater(likelihood, _FLOOR / 2)
    loss = F.where(possible, -likelihood, float("inf"))
    time = F.reshape(Tensor(list(range(steps)), mstype.int32), (steps, 1))
    counted = F.expand_dims(F.logical_and(F.less(time, F.expand_dims(input_lengths, 0)), possible), 2)
    # built per call (its kernels are shared per function): made at import, it loaded the gradient compiler
    occupancy = run("stop_gradient", grad(_summed_log_likelihood, grad_position=0)(*arguments))
    gradient = F.where(counted, F.exp(log_probs) - occupancy, 0.0)
    return loss, gradient


class CTCLoss(Primitive):
    """``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values, sequence_length)``: the CTC loss
    of each batch item and its gradient with respect to ``x``.

    Inputs:
        - **x** (Tensor) - the logits, ``(max_time, batch_size, num_classes)``, float16, float32 or float64; the
          class ``num_classes - 1`` is the blank.
        - **labels_indices** (Tensor) - ``(N, 2)`` int64: ``[batch, position]`` of each label.
        - **labels_values** (Tensor) - ``(N,)`` int32: the labels, in ``[0, num_classes - 1)``.
        - **sequence_length** (Tensor) - ``(batch_size,)`` int32: the steps of each sequence, at most ``max_time``.

    Outputs:
        - **loss** (Tensor) - ``(batch_size,)``, the negative log-likelihoods, of ``x``'s dtype.
        - **gradient** (Tensor) - the gradient of the summed losses with respect to ``x``, of its shape.

    A sequence with more labels than steps has the loss ``inf`` and a zero gradient, also when
    ``ignore_longer_outputs_than_inputs`` is False (MindSpore raises a RuntimeError then; npspore does not read
    the labels' values to check it, so compiled and eager code agree).

    Raises:
        TypeError: If an option is not a bool, or an input has the wrong dtype.
        ValueError: If the ranks of the inputs are wrong.
        NotImplementedError: If ``preprocess_collapse_repeated`` is True or ``ctc_merge_repeated`` False (not
            implemented in npspore).
    """

    def __init__(self, preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
                 ignore_longer_outputs_than_inputs: bool = False) -> None:
        super().__init__("CTCLoss")
        for name, value in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                            ("ctc_merge_repeated", ctc_merge_repeated),
                            ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'CTCLoss', the type of '{name}' should be 'bool', but got type "
                                f"'{type(value).__name__}'.")
            self.add_prim_attr(name, value)
        if preprocess_collapse_repeated or not ctc_merge_repeated:
            raise NotImplementedError("For 'CTCLoss', preprocess_collapse_repeated=True and ctc_merge_repeated=False "
                                      "are not implemented in npspore.")
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs

    def __call__(self, x: Tensor, labels_indices: Tensor, labels_values: Tensor,
                 sequence_length: Tensor) -> tuple[Tensor, Tensor]:
        _check(x, labels_indices, labels_values, sequence_length)
        wide = F.cast(x, mstype.float32) if x.dtype == mstype.float16 else x
        loss, gradient = _ctc_loss(wide, labels_indices, labels_values, sequence_length)
        return F.cast(loss, x.dtype), F.cast(gradient, x.dtype)


def _check(x, labels_indices, labels_values, sequence_length) -> None:
    for name, value, ranks in (("x", x, 3), ("labels_indices", labels_indices, 2), ("labels_values", labels_values, 1),
                               ("sequence_length", sequence_length, 1)):
        if not isinstance(value, Tensor) and not hasattr(value, "shape"):
            raise TypeError(f"For 'CTCLoss', the '{name}' must be a Tensor, but got {type(value).__name__}.")
        if len(value.shape) != ranks:
            raise ValueError(f"For 'CTCLoss', the dimension of '{name}' must be {ranks}, but got "
                             f"{len(value.shape)}.")
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For 'CTCLoss', the 'x' must be a Tensor of float16, float32 or float64, but got "
                        f"{x.dtype}.")
    if labels_indices.dtype != mstype.int64 or labels_values.dtype != mstype.int32 or \
            sequence_length.dtype != mstype.int32:
        raise TypeError("For 'CTCLoss', 'labels_indices' must be int64, 'labels_values' and 'sequence_length' "
                        f"int32, but got {labels_indices.dtype}, {labels_values.dtype} and {sequence_length.dtype}.")
    if labels_indices.shape[1] != 2 or labels_values.shape[0] != labels_indices.shape[0] or \
            sequence_length.shape[0] != x.shape[1]:
        raise ValueError(f"For 'CTCLoss', 'labels_indices' must be (N, 2) with 'labels_values' (N,) and "
                         f"'sequence_length' (batch_size,), but got {labels_indices.shape}, {labels_values.shape} "
                         f"and {sequence_length.shape} for x of shape {x.shape}.")

