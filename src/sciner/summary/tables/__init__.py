"""Values and results read off a paper's tables (PDFs read with ``--include tables``).

A table row carries its ``table`` and its ``cells`` (token ranges and the columns each covers;
see :mod:`sciner.pdf.tables`). Small stages over a table that does not change while it is read:
cells.py (what a cell prints: numbers, metric heads, languages; the rows of each table),
caption.py (what the caption says), conventions.py (the metric of a
benchmark's task by convention), namer.py (what a cell names, by type), header.py (the
heads over each column), reader.py (:func:`~sciner.summary.tables.reader.read_tables`: the
rows read top to bottom into values, results and not results). Rows are read top to bottom:

* a row holding a number is a *data row*: the cells left of its first number are its label;
* the rows above the first data row are the table's *header*; a row of several cells without
  numbers below data rows starts a new header block (stacked sub-tables: "Test P R F1" under
  the "Dev" block);
* a row of one cell in the label column and no number is a *group label* ("Published",
  "Ours", "Dev (all lengths)"): a group labelled "Ours" holds the paper's own rows.

A cell's text is a name of the type the paper tags it with most often, else of the type the
model tagged in it here, else a metric when it reads as one (``metric_like``: "BLEU",
"R-1", "EM", "Acc.", "MF1"), else of a type the shared gazetteers list it under; split names
("Dev", "Test") name nothing, for they head columns of every metric. Every number of a data
row's body is then accounted for, as

* a *result* (a MetricValue): its metric is the lowest metric head above it (a sub-metric such as
  "F1" under a spanning "MUC" is "MUC F1"; a symbol the caption spells out, "r" under "Pearson
  correlation ( r )", that metric; a head saying which output a group of metric columns scores,
  "Ans" or "Relation" over "EM F1", the metric's: "Ans EM"), else its row's, else the one its
  caption gives its dataset or the table ("F1 scores are reported for QQP and MRPC", "All values
  are F1 scores"; "Spearman's correlation ( left ) and accuracy ( right )": each side's), else the
  one the paper's sentences give its dataset ("we report F1 on CoNLL 2003"), else the paper's only
  metric (where no head names the data, only a metric the prose gives data: "we report accuracy on
  ChnSentiCorp"), else the one a standard benchmark's task is scored with by convention ("CoLA"
  alone over its column: Matthews correlation; see conventions.py; the result's header then ends
  "(metric: benchmark convention)"); its dataset, task and model come from the heads,
  the row's label and the caption (each side's own where it captions two tables set side by
  side: "Left : ... Right : ..."), a head that names nothing ("Laptop", "Arabic") qualifying
  the dataset; a name that says how a score was got ("Semi-supervised", "Single model",
  "Adam", "Top 500") is no dataset, nor the data a model was trained on ("trained on
  Wikipedia", a "Training corpus" column); where a head names the method ("SSK-T1" over a
  column), the row's label is the dataset, unless it cites prior work or varies a model
  ("w/o SOP"), and the one head of a row of data heads tagged as a method ("DRCD"), or a head
  over a row counting samples ("# of train samples"), names data; where nothing names the
  data, the one dataset the prose citing the table names ("Table 5 shows results on COCO"),
  else the paper's main one (else the one its prose says it is evaluated on: "We use the
  WikiReading dataset"), unless the caption names other data; a caption's one translation
  direction ("En - De test BLEU") is its data; a citation ending the row's label is kept
  apart from the model ("BiLSTM ( Lample et al . , 2016 )"); an "x / y" cell is two results
  (under "Accuracy / ∆" the second a difference); so is "65.5 ( 64.4 )" where a caption of
  the paper says its brackets hold the average of runs (setting "average"); an aggregate's
  column ("Average" right of "MR CR SUBJ") is over all the data beside it, never one of them;
* a HyperparameterValue when its column's heads name a HyperparameterName and no metric;
* else a :class:`~sciner.summary.values.NotResult` with its reason: a "difference" ("+0.25",
  a Δ column, "(19 %)" after a score), a "deviation" (the "± 0.17" of a score, a "std"
  column), a "count" ("#Docs", "N"), a "p-value" (also a "p" head where the caption speaks of
  significance), a "size", a "time", a "setting" (a hyperparameter's value, a "Dim ." or
  "Settings" column; a number labelling its row, such as a threshold), "parenthesized"
  (the "( 1,542,805 )" beside a count), or "no metric";
* a run of evenly spaced numbers along a row or down a column ("2 4 6 8 10 12", "0.5 0.4 0.3
  0.2 0.1") is a figure's axis the layout set amid the table: "axis", whatever heads it;
* and a cell of the body the rows above leave unread is still one: an "amount" ("335 M",
  "18x") or "unread" ("5.2.1", "512 + 512", "0.763 / 0.719 ( r )"), never dropped in silence.

A cell prints its numbers as :func:`~sciner.summary.tables.cells.cell_numbers` reads them:
"85.21(.58)", "85.2 ± 0.6", "80.6/80.1", "84.7/85.0/84.9", "86.6/-", ".97", "1,806,230",
"3 × 10−5", "3e-5", footnote marks and bold markers around them.
"""

