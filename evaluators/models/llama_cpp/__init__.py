"""The llama.cpp backend (`llama-cpp:<path.gguf>`, `llama-cpp:smollm2`): model.py is the backend, loading.py the
one builder of a Llama and the model cache, grammar.py the constrained reply, prompt.py the prompt and its fitting."""
