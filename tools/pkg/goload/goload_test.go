package goload

import (
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestErrorDiagnostic(t *testing.T) {
	cases := []struct {
		in   packages.Error
		want string
	}{
		{packages.Error{Pos: "/a/types.go:12:3", Msg: "bad marker"}, "/a/types.go:12: bad marker"},
		{packages.Error{Pos: "example.com/x:-", Msg: "no Go files"}, "example.com/x: no Go files"},
		{packages.Error{Pos: "-", Msg: "whole load failed"}, "whole load failed"},
	}
	for _, c := range cases {
		if got := ErrorDiagnostic(c.in).String(); got != c.want {
			t.Errorf("ErrorDiagnostic(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}
