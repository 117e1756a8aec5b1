package formatters

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ferridriver/ferridriver/messages"
)

// Style is a list of text style names as Node's util.styleText accepts
// them ("bold", "red", "blackBright", ...); empty means unstyled.
type Style []string

// Theme styles the terminal formats (pretty, progress, progress-bar,
// summary). Its shape is the Theme of @cucumber/pretty-formatter, which is
// what cucumber-js's `theme` format option takes.
type Theme struct {
	Affix      Style
	Attachment Style
	DataTable  struct{ All, Border, Content Style }
	DocString  struct{ All, Content, Delimiter, MediaType Style }
	Feature    struct{ All, Keyword, Name Style }
	Location   Style
	Rule       struct{ All, Keyword, Name Style }
	Scenario   struct{ All, Keyword, Name Style }
	Status     struct {
		All      map[messages.TestStepResultStatus]Style
		Icon     map[messages.TestStepResultStatus]string
		Progress map[messages.TestStepResultStatus]string
	}
	Step   struct{ Argument, Keyword, Text Style }
	Tag    Style
	Symbol struct{ Bullet string }
}

var (
	statusColors = map[messages.TestStepResultStatus]Style{
		messages.TestStepResultStatusAmbiguous: {"magenta"},
		messages.TestStepResultStatusFailed:    {"red"},
		messages.TestStepResultStatusPassed:    {"green"},
		messages.TestStepResultStatusPending:   {"cyan"},
		messages.TestStepResultStatusSkipped:   {"yellow"},
		messages.TestStepResultStatusUndefined: {"blue"},
		messages.TestStepResultStatusUnknown:   {"gray"},
	}
	statusIcons = map[messages.TestStepResultStatus]string{
		messages.TestStepResultStatusAmbiguous: "✘",
		messages.TestStepResultStatusFailed:    "✘",
		messages.TestStepResultStatusPassed:    "✔",
		messages.TestStepResultStatusPending:   "■",
		messages.TestStepResultStatusSkipped:   "↷",
		messages.TestStepResultStatusUndefined: "■",
		messages.TestStepResultStatusUnknown:   " ",
	}
	progressIcons = map[messages.TestStepResultStatus]string{
		messages.TestStepResultStatusAmbiguous: "A",
		messages.TestStepResultStatusFailed:    "F",
		messages.TestStepResultStatusPassed:    ".",
		messages.TestStepResultStatusPending:   "P",
		messages.TestStepResultStatusSkipped:   "-",
		messages.TestStepResultStatusUndefined: "U",
		messages.TestStepResultStatusUnknown:   "?",
	}
)

// CucumberTheme is the default theme of cucumber-js's terminal formats.
func CucumberTheme() *Theme {
	t := &Theme{Affix: Style{"italic"}, Attachment: Style{"blue"}, Location: Style{"blackBright"}}
	t.Feature.Keyword = Style{"bold"}
	t.Rule.Keyword = Style{"bold"}
	t.Scenario.Keyword = Style{"bold"}
	t.Step.Argument = Style{"bold"}
	t.Step.Keyword = Style{"bold"}
	t.Status.All, t.Status.Icon, t.Status.Progress = statusColors, statusIcons, progressIcons
	t.Symbol.Bullet = "•"
	return t
}

// PlainTheme has the icons of the default theme and no styles.
func PlainTheme() *Theme {
	t := &Theme{}
	t.Status.Icon, t.Status.Progress = statusIcons, progressIcons
	t.Symbol.Bullet = "-"
	return t
}

// ansiCodes are Node's util.inspect.colors: open and close SGR codes.
var ansiCodes = map[string][2]int{
	"reset": {0, 0}, "bold": {1, 22}, "dim": {2, 22}, "faint": {2, 22}, "italic": {3, 23},
	"underline": {4, 24}, "blink": {5, 25}, "inverse": {7, 27}, "swapColors": {7, 27}, "swapcolors": {7, 27},
	"hidden": {8, 28}, "conceal": {8, 28}, "strikethrough": {9, 29}, "crossedout": {9, 29},
	"strikeThrough": {9, 29}, "crossedOut": {9, 29}, "doubleunderline": {21, 24}, "doubleUnderline": {21, 24},
	"black": {30, 39}, "red": {31, 39}, "green": {32, 39}, "yellow": {33, 39}, "blue": {34, 39},
	"magenta": {35, 39}, "cyan": {36, 39}, "white": {37, 39},
	"bgBlack": {40, 49}, "bgRed": {41, 49}, "bgGreen": {42, 49}, "bgYellow": {43, 49}, "bgBlue": {44, 49},
	"bgMagenta": {45, 49}, "bgCyan": {46, 49}, "bgWhite": {47, 49},
	"framed": {51, 54}, "overlined": {53, 55},
	"gray": {90, 39}, "grey": {90, 39}, "blackBright": {90, 39}, "redBright": {91, 39}, "greenBright": {92, 39},
	"yellowBright": {93, 39}, "blueBright": {94, 39}, "magentaBright": {95, 39}, "cyanBright": {96, 39},
	"whiteBright": {97, 39},
	"bgGray":      {100, 49}, "bgGrey": {100, 49}, "bgBlackBright": {100, 49}, "bgRedBright": {101, 49},
	"bgGreenBright": {102, 49}, "bgYellowBright": {103, 49}, "bgBlueBright": {104, 49},
	"bgMagentaBright": {105, 49}, "bgCyanBright": {106, 49}, "bgWhiteBright": {107, 49},
}

// styler applies styles when colours are on, as util.styleText does for a
// stream: every style's open code before the text, the close codes after it
// in reverse order.
type styler struct{ on bool }

func (s styler) apply(st Style, text string) string {
	if !s.on || len(st) == 0 {
		return text
	}
	var open, closeCodes string
	for _, name := range st {
		c, ok := ansiCodes[name]
		if !ok {
			continue // rejected when the theme was parsed
		}
		open += "\x1b[" + strconv.Itoa(c[0]) + "m"
		closeCodes = "\x1b[" + strconv.Itoa(c[1]) + "m" + closeCodes
	}
	return open + text + closeCodes
}

// applyEachLine styles every line of text separately, so that indenting the
// result keeps the colour on each line.
func (s styler) applyEachLine(st Style, text string) string {
	if !s.on || len(st) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = s.apply(st, l)
	}
	return strings.Join(lines, "\n")
}

// stripANSI removes SGR escape sequences (as util.stripVTControlCharacters
// does for the codes we emit).
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] == ';' || (s[j] >= '0' && s[j] <= '9')) {
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// themeFromOption builds the theme from the `theme` format option: a theme
// object shaped like cucumber-js's (it replaces the default, as in
// cucumber-js), or one of the names "cucumber", "plain" or "none".
func themeFromOption(v any) (*Theme, error) {
	switch tv := v.(type) {
	case nil:
		return CucumberTheme(), nil
	case string:
		switch tv {
		case "cucumber", "default":
			return CucumberTheme(), nil
		case "plain":
			return PlainTheme(), nil
		case "none":
			return &Theme{}, nil
		}
		return nil, fmt.Errorf(`theme %q: want "cucumber", "plain", "none" or a theme object`, tv)
	case map[string]any:
		return parseTheme(tv)
	}
	return nil, fmt.Errorf("theme: want a name or an object, got %T", v)
}

func parseTheme(m map[string]any) (*Theme, error) {
	t := &Theme{}
	var errs []string
	style := func(path string, v any) Style {
		st, err := parseStyle(v)
		if err != nil {
			errs = append(errs, path+": "+err.Error())
		}
		return st
	}
	sub := func(key string) map[string]any {
		if v, ok := m[key].(map[string]any); ok {
			return v
		}
		if _, ok := m[key]; ok {
			errs = append(errs, key+": want an object")
		}
		return map[string]any{}
	}
	t.Affix = style("affix", m["affix"])
	t.Attachment = style("attachment", m["attachment"])
	t.Location = style("location", m["location"])
	t.Tag = style("tag", m["tag"])
	dt := sub("dataTable")
	t.DataTable.All, t.DataTable.Border, t.DataTable.Content = style("dataTable.all", dt["all"]), style("dataTable.border", dt["border"]), style("dataTable.content", dt["content"])
	ds := sub("docString")
	t.DocString.All, t.DocString.Content = style("docString.all", ds["all"]), style("docString.content", ds["content"])
	t.DocString.Delimiter, t.DocString.MediaType = style("docString.delimiter", ds["delimiter"]), style("docString.mediaType", ds["mediaType"])
	for _, n := range []struct {
		key string
		dst *struct{ All, Keyword, Name Style }
	}{{"feature", &t.Feature}, {"rule", &t.Rule}, {"scenario", &t.Scenario}} {
		o := sub(n.key)
		n.dst.All, n.dst.Keyword, n.dst.Name = style(n.key+".all", o["all"]), style(n.key+".keyword", o["keyword"]), style(n.key+".name", o["name"])
	}
	st := sub("step")
	t.Step.Argument, t.Step.Keyword, t.Step.Text = style("step.argument", st["argument"]), style("step.keyword", st["keyword"]), style("step.text", st["text"])
	if sym, ok := sub("symbol")["bullet"].(string); ok {
		t.Symbol.Bullet = sym
	}
	status := sub("status")
	if all, ok := status["all"].(map[string]any); ok {
		t.Status.All = map[messages.TestStepResultStatus]Style{}
		for k, v := range all {
			t.Status.All[messages.TestStepResultStatus(k)] = style("status.all."+k, v)
		}
	}
	for _, n := range []struct {
		key string
		dst *map[messages.TestStepResultStatus]string
	}{{"icon", &t.Status.Icon}, {"progress", &t.Status.Progress}} {
		if o, ok := status[n.key].(map[string]any); ok {
			*n.dst = map[messages.TestStepResultStatus]string{}
			for k, v := range o {
				s, ok := v.(string)
				if !ok {
					errs = append(errs, "status."+n.key+"."+k+": want a string")
				}
				(*n.dst)[messages.TestStepResultStatus(k)] = s
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("theme: %s", strings.Join(errs, "; "))
	}
	return t, nil
}

func parseStyle(v any) (Style, error) {
	var names []string
	switch tv := v.(type) {
	case nil:
		return nil, nil
	case string:
		names = []string{tv}
	case []any:
		for _, e := range tv {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("want style names, got %v", e)
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("want a style name or a list of them, got %T", v)
	}
	for _, n := range names {
		if _, ok := ansiCodes[n]; !ok {
			return nil, fmt.Errorf("unknown style %q", n)
		}
	}
	return names, nil
}
