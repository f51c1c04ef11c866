package referenceera

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/refera"
)

// TestSignsAlongTheReferenceHistory checks the signs against the
// reference's own history: at every commit of its main branch that changed
// tools/ since September 2025, the era the signs tell must be the era of
// the commit's date. It needs a git directory of openshift/api, named by
// GATEDCRD_REFERENCE_GIT (a clone or mirror); without it the test is
// skipped.
func TestSignsAlongTheReferenceHistory(t *testing.T) {
	gitDir := os.Getenv("GATEDCRD_REFERENCE_GIT")
	if gitDir == "" {
		t.Skip("GATEDCRD_REFERENCE_GIT names no git directory of openshift/api")
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	log := git("log", "--first-parent", "--format=%H %cI", "--since=2025-09-01", "HEAD", "--", "tools/go.mod", "tools/codegen")
	commits := strings.Fields(log)
	if len(commits) < 20 {
		t.Fatalf("only %d commits touch tools/ since 2025-09", len(commits)/2)
	}
	for i := 0; i+1 < len(commits); i += 2 {
		rev, date := commits[i], commits[i+1]
		dir := t.TempDir()
		tools := filepath.Join(dir, "tools")
		files := strings.Fields(git("ls-tree", "-r", "--name-only", rev, "--", "tools/go.mod", "tools/"+manifestMerge, "tools/"+partialSchema))
		for _, f := range files {
			if strings.Contains(f, "/vendor/") || strings.Count(strings.TrimPrefix(f, "tools/"+manifestMerge+"/"), "/") > 0 && strings.HasPrefix(f, "tools/"+manifestMerge) {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(git("show", rev+":"+f)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c, ok := fromTools(dir)
		if !ok {
			t.Fatalf("%s (%s): no reference found in %s", rev, date, tools)
		}
		when, err := time.Parse(time.RFC3339, date)
		if err != nil {
			t.Fatal(err)
		}
		want := refera.EraAt(when.UTC().Format(time.DateOnly))
		if c.Era != want {
			t.Errorf("%s of %s: signs tell era %s (%s), the date %s", rev[:10], date, c.Era, c.Reason, want)
		}
	}
}
