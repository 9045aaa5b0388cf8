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

from .._checkparam import check_value_type
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..grad import grad
from . import functional as F
from .array_functional import gather_elements, positions, scatter_nd
from .eager import run
from .primitives import Primitive

__all__ = ["CTCLoss", "CTCLossV2"]

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


def _alignment_states(log_probs: Tensor, labels: Tensor, label_lengths: Tensor, blank: int) -> tuple:
    """The extended label sequences (a blank before, between and after the labels ``(B, L)``) as ``(state (1, S)
    indices, used (B, S): within ``2 * label_lengths + 1``, skips (B, S): a state reachable from two back,
    emitted (T, B, S): each step's log-probability of each state's label, floor (B, S))``."""
    width = labels.shape[1]
    states = 2 * width + 1
    blanks = F.zeros_like(labels) + blank   # (B, L); made from the labels, the batch may be known only at run time
    extended = F.concat((F.reshape(F.stack((blanks, labels), axis=2), (-1, 2 * width)), blanks[:, :1]), axis=1)
    state = F.expand_dims(Tensor(list(range(states)), mstype.int32), 0)
    used = F.less(state, F.expand_dims(2 * label_lengths + 1, 1))                             # (B, S)
    before = F.concat((blanks[:, :1], blanks[:, :1], extended[:, :-2]), axis=1)
    skips = F.logical_and(F.not_equal(extended, blank), F.not_equal(extended, before))
    every_step = F.cast(F.zeros_like(log_probs[:, :, :1]), mstype.int32) + F.expand_dims(extended, 0)   # (T, B, S)
    emitted = gather_elements(log_probs, 2, every_step)
    return state, used, skips, emitted, F.zeros_like(emitted[0]) + _FLOOR


def _log_likelihood(log_probs: Tensor, labels: Tensor, label_lengths: Tensor, input_lengths: Tensor,
                    blank: int) -> Tensor:
    """``(B,)`` log-probabilities of the label sequences under ``log_probs (T, B, C)``: ``labels (B, L)`` int32,
    of which the first ``label_lengths (B,)`` count, over the first ``input_lengths`` steps. Repeated labels
    need a blank between them; an empty sequence has MindSpore's likelihood (the module's docstring)."""
    steps = log_probs.shape[0]
    state, used, skips, emitted, floor = _alignment_states(log_probs, labels, label_lengths, blank)
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
    time = F.reshape(positions(logits, 0), (-1, 1))
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



def _log_alpha(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor,
               blank: int) -> Tensor:
    """The forward variables ``(N, T, 2 * S + 1)`` of ``log_probs (T, N, C)``: ``-inf`` for a state past
    ``2 * target_length + 1`` or unreachable, and for every step past a sequence's input length."""
    steps = log_probs.shape[0]
    state, used, skips, emitted, floor = _alignment_states(log_probs, targets, target_lengths, blank)
    alpha = F.where(F.logical_and(F.less(state, 2), used), emitted[0], floor)
    history = [alpha]
    for step in range(1, steps):
        moved = _log_sum((alpha, _shifted(alpha, 1), F.where(skips, _shifted(alpha, 2), floor))) + emitted[step]
        alpha = F.where(used, moved, floor)
        history.append(alpha)
    stacked = F.stack(history, 1)                                                   # (N, T, S)
    time = F.reshape(Tensor(list(range(steps)), mstype.int32), (1, steps, 1))
    running = F.less(time, F.reshape(input_lengths, (-1, 1, 1)))
    return F.where(F.logical_and(running, F.greater(stacked, _FLOOR / 2)), stacked, float("-inf"))


class CTCLossV2(Primitive):
    """``CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets, input_lengths,
    target_lengths)``: the CTC loss of log-probabilities ``(T, N, C)`` (taken as given, not normalized) for the
    padded targets ``(N, S)``, and the forward variables.

    Outputs:
        - **neg_log_likelihood** (Tensor) - ``(N,)``: ``-log(alpha[L-1][2 * target_length] + alpha[L-1][2 *
          target_length - 1])`` at the last step ``L - 1`` of each input, ``inf`` for an impossible alignment
          (also with `zero_infinity`, as MindSpore 2.10's CPU kernel returns it; its gradient there is 0).
        - **log_alpha** (Tensor) - ``(N, T, 2 * S + 1)``, ``-inf`` where no alignment reaches a state.

    Raises:
        TypeError: If an option has the wrong type or an input the wrong dtype.
        ValueError: If `reduction` is not 'none', `blank` not in ``[0, C)``, or the shapes do not fit.

    A target longer than its input has the loss ``inf`` (MindSpore raises a RuntimeError; npspore does not read the
    lengths' values to check it, so compiled and eager code agree).
    """

    def __init__(self, blank: int = 0, reduction: str = "none", zero_infinity: bool = False) -> None:
        super().__init__("CTCLossV2")
        check_value_type("blank", blank, [int], self.name)
        check_value_type("reduction", reduction, [str], self.name)
        check_value_type("zero_infinity", zero_infinity, [bool], self.name)
        if reduction != "none":
            raise ValueError(f"For 'CTCLossV2', the 'reduction' must be str and must be in '['none']', but got "
                             f"'{reduction}'.")
        self.blank = blank
        for name, value in (("blank", blank), ("reduction", reduction), ("zero_infinity", zero_infinity)):
            self.add_prim_attr(name, value)

    def __call__(self, log_probs: Tensor, targets: Tensor, input_lengths, target_lengths) -> tuple[Tensor, Tensor]:
        if isinstance(input_lengths, (tuple, list)):
            input_lengths = Tensor(list(input_lengths), mstype.int32)
        if isinstance(target_lengths, (tuple, list)):
            target_lengths = Tensor(list(target_lengths), mstype.int32)
        _check_v2(log_probs, targets, input_lengths, target_lengths, self.blank)
        targets = F.cast(targets, mstype.int32)
        input_lengths, target_lengths = F.cast(input_lengths, mstype.int32), F.cast(target_lengths, mstype.int32)
        log_alpha = _log_alpha(log_probs, targets, input_lengths, target_lengths, self.blank)
        batch, steps = log_probs.shape[1], log_probs.shape[0]
        time = F.reshape(Tensor(list(range(steps)), mstype.int32), (1, steps, 1))
        at_end = F.equal(time, F.reshape(input_lengths - 1, (-1, 1, 1)))
        state = F.reshape(Tensor(list(range(log_alpha.shape[2])), mstype.int32), (1, 1, -1))
        last = F.reshape(2 * target_lengths, (-1, 1, 1))
        final = F.logical_and(at_end, F.logical_or(F.equal(state, last), F.equal(state, last - 1)))
        ended = F.where(final, F.where(F.isinf(log_alpha), _FLOOR, log_alpha), _FLOOR)
        flat = F.reshape(ended, (batch, -1))
        top = run("stop_gradient", F.reduce_max(flat, 1, keep_dims=True))
        likelihood = F.squeeze(top, 1) + F.log(F.reduce_sum(F.exp(flat - top), 1))
        possible = F.greater(likelihood, _FLOOR / 2)
        loss = F.where(possible, -likelihood, float("inf"))
        return loss, log_alpha


def _check_v2(log_probs, targets, input_lengths, target_lengths, blank: int) -> None:
    for name, value, rank in (("log_probs", log_probs, 3), ("targets", targets, 2), ("input_lengths", input_lengths, 1),
                              ("target_lengths", target_lengths, 1)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'CTCLossV2', the '{name}' must be a Tensor, but got {type(value).__name__}.")
        if len(value.shape) != rank:
            raise ValueError(f"For 'CTCLossV2', the rank of '{name}' must be {rank}, but got {len(value.shape)}.")
    if log_probs.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"For 'CTCLossV2', the 'log_probs' must be float32 or float64, but got {log_probs.dtype}.")
    for name, value in (("targets", targets), ("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if value.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'CTCLossV2', the '{name}' must be int32 or int64, but got {value.dtype}.")
    batch = log_probs.shape[1]
    if targets.shape[0] != batch or input_lengths.shape[0] != batch or target_lengths.shape[0] != batch:
        raise ValueError(f"For 'CTCLossV2', 'targets', 'input_lengths' and 'target_lengths' must have the batch size "
                         f"{batch}, but got {targets.shape}, {input_lengths.shape} and {target_lengths.shape}.")
    if blank < 0 or blank >= log_probs.shape[2]:
        raise ValueError(f"For 'CTCLossV2', the 'blank' must be in [0, {log_probs.shape[2]}), but got {blank}.")
