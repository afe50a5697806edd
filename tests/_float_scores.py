"""How a test compares a score that passed through floating-point sums.

Ids and digests of what was played are exact on every host. A score computed from embeddings is not: the embedder
runs in float32 (machine epsilon 1.2e-7) through BLAS, and OpenBLAS picks its kernels by CPU (SSE, AVX2, AVX-512),
each summing a dot product in its own order, so one cosine similarity moves by a few float32 units in the last place
(seen: Shopping MMLU's random baseline scores 0.21057998729764935 with AVX2 kernels, 0.21057999474822994 with
AVX-512 ones). SCORE_TOLERANCE is about ten such units of a similarity, three orders below the third decimal the
tables print: a real change of the scorer still fails the comparison.
"""

from __future__ import annotations

SCORE_TOLERANCE = 1e-6
