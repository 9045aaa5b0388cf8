"""Argument checks shared by optimizers, learning-rate schedules and training cells.

Each returns the value it checked and raises MindSpore's TypeError/ValueError naming the argument.
"""
from __future__ import annotations


def check_positive_int(value, arg_name, cls_name):
    """``value`` if it is an int > 0."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be 'int', but got "
                        f"'{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a positive int number, but got {value}.")
    return value


def check_float(value, arg_name, cls_name, positive=False):
    """``value`` if it is a Python float >= 0 (> 0 when ``positive``)."""
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the argument '{arg_name}' must be type of float, but got "
                        f"'{arg_name}' type: {type(value)}.")
    return check_number_range(value, arg_name, cls_name, positive)


def check_number_range(value, arg_name, cls_name, positive=False):
    """``value`` (a number) if it is >= 0 (> 0 when ``positive``), in the words of MindSpore's validator."""
    if value < 0 or (positive and value == 0):
        bound = "> 0" if positive else ">= 0"
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be float and must {bound}, but got '{value}' with "
                         f"type '{type(value).__name__}'.")
    return value


def check_bool(value, arg_name, cls_name):
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be 'bool', but got "
                        f"'{type(value).__name__}'.")
    return value


def check_non_negative_int(value, arg_name, cls_name):
    """``value`` if it is an int >= 0."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{cls_name}', the type of '{arg_name}' must be 'int', but got "
                        f"'{type(value).__name__}'.")
    if value < 0:
        raise ValueError(f"For '{cls_name}', the '{arg_name}' must be a non-negative int number, but got {value}.")
    return value
