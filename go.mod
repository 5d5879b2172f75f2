module github.com/beff-suite/beff

go 1.26
