"""The compiler: frontend, normalize, specialize, differentiate, optimize, codegen, cache."""
