package widgettest

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// junitSuites is the JUnit XML document CI systems read (GitLab, Jenkins,
// GitHub test reporters): one suite per widget, one test case per fixture
// and host.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func seconds(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

// JUnit renders the report as JUnit XML.
func (r *Report) JUnit() ([]byte, error) {
	doc := junitSuites{Name: "widgetd test", Tests: len(r.Cases), Failures: r.Failed, Time: seconds(r.DurationMs)}
	index := map[string]int{}
	for _, c := range r.Cases {
		i, ok := index[c.Widget]
		if !ok {
			i = len(doc.Suites)
			index[c.Widget] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: c.Widget})
		}
		s := &doc.Suites[i]
		jc := junitCase{Name: c.Fixture + "@" + c.Host, Classname: "widgets." + c.Widget, Time: seconds(c.DurationMs)}
		if !c.Passed {
			s.Failures++
			jc.Failure = &junitFailure{Message: c.Failures[0], Text: strings.Join(c.Failures, "\n")}
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	for i := range doc.Suites {
		var ms float64
		for _, c := range r.Cases {
			if c.Widget == doc.Suites[i].Name {
				ms += c.DurationMs
			}
		}
		doc.Suites[i].Time = seconds(ms)
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}
