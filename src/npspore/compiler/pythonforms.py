"""The Python forms specialize evaluates to Python values: f-strings (a value read from a tensor formatted when the
kernel runs), comprehensions (iterated while compiling), and the Python ints a kept ``range`` loop's index makes
(MindSpore's graph mode unrolls the loop, so ``i + 1`` is an int there and ``0.1 * i`` a Python float)."""
from __future__ import annotations

import ast

from .values import Frame, HostValue, NeedsStatic, TensorValue


class PythonForms:
    """Mixed into :class:`~npspore.compiler.specialize.FunctionSpecializer`."""

    _python_ints: set

    def _eval_JoinedStr(self, node, frame):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                item = self._eval(value.value, frame)
                if not isinstance(item, HostValue):
                    item = self._static(item, frame, value)
                spec = self._static(self._eval(value.format_spec, frame), frame, value) if value.format_spec else ""
                convert = {ord("r"): repr, ord("s"): str}.get(value.conversion)
                if isinstance(item, HostValue):   # a value read from a tensor: formatted when the kernel runs
                    item = self.host_call(convert, (item,), {}, frame, value) if convert else item
                    parts.append(self.host_call(format, (item, spec), {}, frame, value))
                else:
                    parts.append(format(convert(item) if convert else item, spec))
            else:
                parts.append(value.value)
        if not any(isinstance(part, HostValue) for part in parts):
            return "".join(parts)
        text = parts[0]
        for part in parts[1:]:
            text = self._binary(ast.Add, text, part, frame, node)
        return text


    def _python_int_arithmetic(self, op_type, left, right, node) -> bool:
        """Whether ``left op right`` is int arithmetic on Python ints held in tensors (a kept range loop's
        index, which MindSpore's graph mode unrolls into Python ints; ``i + 1``), its result one too.
        Where Python would make a float of them (``0.1 * i``, ``i / 2``) it raises :class:`NeedsStatic`:
        the loop is unrolled, so that the float is Python's (staged, ``i`` would be an Int64 tensor and
        ``0.1 * i`` a Float32 one)."""
        operands = (left, right)
        held = [isinstance(v, TensorValue) and v.var in self._python_ints for v in operands]
        if not any(held) or not all(h or type(v) in (int, float, bool) for h, v in zip(held, operands)):
            return False
        if op_type is ast.Div or any(type(v) is float for v in operands):
            raise NeedsStatic(node)
        return op_type in (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


    def _comprehension(self, node, frame, kind):
        results = []
        inner = Frame(frame.source, dict(frame.env))

        def loop(generators):
            if not generators:
                if kind is dict:
                    results.append((self._eval(node.key, inner), self._eval(node.value, inner)))
                else:
                    results.append(self._eval(node.elt, inner))
                return
            generator = generators[0]
            for item in self._iterate_static(self._eval(generator.iter, inner), inner, generator.iter):
                self._assign(generator.target, item, inner)
                if all(self._truth(self._eval(cond, inner), inner, cond) for cond in generator.ifs):
                    loop(generators[1:])

        loop(node.generators)
        # set members and dict keys are compared when built: a value read from a tensor is made concrete
        if kind is dict:
            return {self._static(key, inner, node): value for key, value in results}
        if kind is set:
            return {self._static(item, inner, node) for item in results}
        return results
