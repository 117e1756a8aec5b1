package messages_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

// Every CCK expected stream decodes into our types and re-encodes to the same
// JSON: the generated types cover the whole protocol, keep meaningful zeros
// (Group.start 0) and write empty required arrays as [].
func TestCCKStreamsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(oracles.CCKFeatures(t), "*", "*.ndjson"))
	if len(files) < 40 {
		t.Fatalf("found %d CCK streams, want >= 40", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			envs, err := messages.ReadAll(bytes.NewReader(data), f)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			w := messages.NewWriter(&out)
			for _, e := range envs {
				if err := w.Write(e); err != nil {
					t.Fatal(err)
				}
			}
			w.Flush()
			want := strings.Split(strings.TrimSpace(string(data)), "\n")
			got := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(got) != len(want) {
				t.Fatalf("%d lines, want %d", len(got), len(want))
			}
			for i := range want {
				var a, b any
				json.Unmarshal([]byte(want[i]), &a)
				json.Unmarshal([]byte(got[i]), &b)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("line %d differs:\nwant %s\ngot  %s", i+1, want[i], got[i])
				}
				if err := oracles.ValidateEnvelopeJSON(t, []byte(got[i])); err != nil {
					t.Fatalf("line %d invalid: %v", i+1, err)
				}
			}
		})
	}
}

func TestNilRequiredArraysEncodeAsEmpty(t *testing.T) {
	b, err := json.Marshal(&messages.Envelope{TestCase: &messages.TestCase{ID: "1", PickleID: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"testCase":{"id":"1","pickleId":"2","testSteps":[]}}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// An optional array that is set but empty is kept; nil is omitted.
	b, _ = json.Marshal(messages.TestStep{ID: "s", StepDefinitionIDs: []string{}})
	if got, want := string(b), `{"id":"s","stepDefinitionIds":[]}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestReaderReportsLine(t *testing.T) {
	_, err := messages.ReadAll(strings.NewReader("{\"meta\":{\"protocolVersion\":\"1\",\"implementation\":{\"name\":\"x\"},\"runtime\":{\"name\":\"x\"},\"os\":{\"name\":\"x\"},\"cpu\":{\"name\":\"x\"}}}\n\n{oops\n"), "run.ndjson")
	if err == nil || !strings.Contains(err.Error(), "run.ndjson:3:") {
		t.Fatalf("want an error naming run.ndjson:3, got %v", err)
	}
	_, err = messages.ReadAll(strings.NewReader(`{"nope":{}}`), "x.ndjson")
	if err == nil || !strings.Contains(err.Error(), "x.ndjson:1: envelope carries no known message") {
		t.Fatalf("got %v", err)
	}
}

func TestDurationAndTimestamp(t *testing.T) {
	d := messages.NewDuration(1500 * time.Millisecond)
	if d.Seconds != 1 || d.Nanos != 500_000_000 || d.Std() != 1500*time.Millisecond {
		t.Fatalf("got %+v", d)
	}
	now := time.Unix(1700000000, 123)
	if got := messages.NewTimestamp(now).Time(); !got.Equal(now) {
		t.Fatalf("got %v", got)
	}
}

// Lines of any length are read (an attachment of several MiB); a stream
// whose last line stops in the middle of an envelope (a killed run) gives
// every whole envelope and a *CutError naming that line; a whole last line
// without its newline is read.
func TestReaderLongLinesAndCutStreams(t *testing.T) {
	meta := `{"meta":{"protocolVersion":"1","implementation":{"name":"x"},"runtime":{"name":"x"},"os":{"name":"x"},"cpu":{"name":"x"}}}`
	body := strings.Repeat("A", 3<<20)
	att := `{"attachment":{"body":"` + body + `","contentEncoding":"BASE64","mediaType":"image/png"}}`
	for _, tc := range []struct {
		name, stream string
		want         int // envelopes read
		cutLine      int // 0: no error
	}{
		{"a long line", meta + "\n" + att + "\n" + meta + "\n", 3, 0},
		{"a whole last line without its newline", meta + "\n" + att, 2, 0},
		{"cut in a short line", meta + "\n" + meta + "\n" + meta[:40], 2, 3},
		{"cut in a long line", meta + "\n\n" + att[:2<<20], 1, 3},
		{"cut after a blank line", meta + "\r\n\r\n" + `{"testRunFinished":{"succ`, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			envs, err := messages.ReadAll(strings.NewReader(tc.stream), "run.ndjson")
			if len(envs) != tc.want {
				t.Errorf("%d envelopes, want %d", len(envs), tc.want)
			}
			var cut *messages.CutError
			switch {
			case tc.cutLine == 0 && err != nil:
				t.Errorf("error: %v", err)
			case tc.cutLine != 0 && (!errors.As(err, &cut) || cut.Line != tc.cutLine || cut.Name != "run.ndjson"):
				t.Errorf("want a *CutError at line %d, got %v", tc.cutLine, err)
			}
			if tc.want >= 2 && tc.cutLine == 0 && envs[1].Attachment != nil && len(envs[1].Attachment.Body) != len(body) {
				t.Errorf("attachment body of %d bytes, want %d", len(envs[1].Attachment.Body), len(body))
			}
		})
	}
	// A broken line that is not the last is not a cut: it is an error.
	_, err := messages.ReadAll(strings.NewReader(meta+"\n{\"meta\":\n"+meta+"\n"), "run.ndjson")
	var cut *messages.CutError
	if err == nil || errors.As(err, &cut) || !strings.Contains(err.Error(), "run.ndjson:2: not a Cucumber message") {
		t.Errorf("a broken line inside the stream: %v", err)
	}
}
