module uridifffuzz

go 1.19
