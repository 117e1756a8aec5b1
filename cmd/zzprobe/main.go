package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
)

func main() {
	dir, _ := os.Getwd()
	opts := runner.Options{Dir: dir, Paths: []string{"."}, Steps: []string{"*.ts"}, Alias: map[string]string{"@cucumber/fake-cucumber": "@cucumber/cucumber"}, Strict: true}
	if len(os.Args) > 1 && os.Args[1] == "retry" {
		opts.Retry = 2
	}
	if len(os.Args) > 1 && os.Args[1] == "reverse" {
		opts.Order = "reverse"
	}
	r, err := runner.Prepare(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ERR:", err)
		os.Exit(2)
	}
	w := messages.NewWriter(os.Stdout)
	res := r.Execute(context.Background(), runner.SinkFunc(func(e *messages.Envelope) { w.Write(e) }))
	w.Flush()
	fmt.Fprintf(os.Stderr, "%+v\n", res)
}
