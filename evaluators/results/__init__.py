"""What a run's episodes come to: scoring (the Scorer protocol in `protocol`, `scoring.get_scorer`/`score_run`,
ShoppingBench in `shoppingbench/`, the question benchmarks in `questions`), the statistics, the sentence embedder,
prediction files, and the reports that compare scored runs (`reports/`). Nothing is re-exported here: import the
module that holds a name."""
