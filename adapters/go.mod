// The module the shipped Go programs (go-net-url.go, fetch/fetch.go) are
// built in: uridiff (and scripts/setup-oracles.sh) copy one program and
// this file into an empty directory and build there, so that no go.mod or
// go.work in the caller's directory, or above the temporary directory,
// takes part. Standard library only; the go line is the oldest Go tested.
module uridiff.adapters

go 1.19
