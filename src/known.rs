//! Known deviations: parsers' documented departures from their standard,
//! read from `testdata/known-deviations.tsv`. (Being written.)
