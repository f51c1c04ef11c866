package corpus

// housekeepingCases break the repository configuration (.gatedcrd.yaml)
// and the inputs of the payload CRD copy, the required-annotation check and
// the compatibility level generator.
func housekeepingCases() []tmpl {
	const cfg = ".gatedcrd.yaml"
	const types = "widgets/v1/types.go"
	const merged = "widgets/v1/zz_generated.crd-manifests/"
	widget := "@@" + types + "|type Widget struct@@"
	conf := func(name, desc, content string, want ...string) tmpl {
		return tmpl{name: "repoconfig/" + name, desc: desc, files: map[string]string{cfg: content}, want: want}
	}
	payload := func(name, desc, content string, t tmpl) tmpl {
		t.name, t.desc = "payload-crds/"+name, desc
		if t.args == "" {
			t.args = "payload-crds --base-dir $TREE"
		}
		if t.files == nil {
			t.files = map[string]string{}
		}
		t.files[cfg] = content
		return t
	}
	compat := func(name, desc string, t tmpl) tmpl {
		t.name, t.desc = "compatibility/"+name, desc
		if t.args == "" {
			t.args = "compatibility --base-dir $TREE"
		}
		return t
	}
	const allWidgets = "payloadCRDs:\n  include:\n  - " + merged + "*.crd.yaml\n"
	return []tmpl{
		conf("unknown-key", "payloadCRD instead of payloadCRDs.", "payloadCRD:\n  include: []\n",
			cfg+":1: payloadCRD: unknown key; known keys are "),
		conf("unknown-nested-key", "includes instead of include.", "payloadCRDs:\n  includes: []\n",
			cfg+":2: payloadCRDs.includes: unknown key; payloadCRDs accepts directory, exclude, include"),
		conf("duplicate-key", "kubeVersion given twice.", "kubeVersion: \"1.32\"\nkubeVersion: \"1.33\"\n",
			cfg+":2: kubeVersion: is given twice (first on line 1)"),
		conf("invalid-yaml", "An unterminated flow sequence.", "payloadCRDs:\n  include: [\n",
			cfg+":2: invalid YAML: did not find expected node content"),
		conf("not-a-mapping", "A list instead of a mapping.", "- kubeVersion\n",
			cfg+":1: must be a mapping of keys ("),
		conf("kube-version-with-v", "kubeVersion written like a tag.", "kubeVersion: v1.32\n",
			cfg+`:1: kubeVersion: "v1.32" is not a Kubernetes release; write <major>.<minor>, e.g. "1.32"`),
		conf("bad-glob", "An unterminated character class.", "payloadCRDs:\n  include:\n  - widgets/v1/[a.yaml\n",
			cfg+`:3: payloadCRDs.include: "widgets/v1/[a.yaml" is not a valid glob pattern (path.Match syntax: *, ?, [a-z], no **)`),
		conf("enabled-not-bool", "compatibility.enabled: sometimes.", "compatibility:\n  enabled: sometimes\n",
			cfg+":2: compatibility.enabled: must be true or false"),
		conf("enum-switch-not-bool", "enumFromConstants: yes please.", "enumFromConstants: yes please\n",
			cfg+":1: enumFromConstants: must be true or false"),
		{name: "repoconfig/directory", desc: ".gatedcrd.yaml is a directory.", mkdir: []string{cfg},
			want: []string{cfg + ": cannot be read: is a directory"}},

		payload("glob-matches-nothing", "An include glob for a version that does not exist.",
			allWidgets+"  - widgets/v2/zz_generated.crd-manifests/*.crd.yaml\n",
			tmpl{want: []string{cfg + `:4: payloadCRDs.include: "widgets/v2/zz_generated.crd-manifests/*.crd.yaml" matches no generated CRD manifest`}}),
		payload("exclude-matches-nothing", "A stale exclude glob.",
			allWidgets+"  exclude:\n  - gadgets/v1/zz_generated.crd-manifests/*.crd.yaml\n",
			tmpl{want: []string{cfg + `:5: payloadCRDs.exclude: "gadgets/v1/zz_generated.crd-manifests/*.crd.yaml" matches no generated CRD manifest`}}),
		payload("file-not-selected", "Only the Default variant is selected: the others would silently miss the payload.",
			"payloadCRDs:\n  include:\n  - "+merged+"*-Default.crd.yaml\n",
			tmpl{want: []string{
				merged + `0000_10_widgets_01_widgets-CustomNoUpgrade.crd.yaml: this generated CRD manifest is neither copied to the payload nor excluded; add the line "  - ` + merged + `0000_10_widgets_01_widgets-CustomNoUpgrade.crd.yaml" under payloadCRDs.include (to ship it) or payloadCRDs.exclude in .gatedcrd.yaml`,
				merged + `0000_10_widgets_01_widgets-TechPreviewNoUpgrade.crd.yaml: this generated CRD manifest is neither copied`,
			}}),
		payload("stale-copies", "The payload directory lacks the copies and holds a file nothing selects.", allWidgets,
			tmpl{args: "payload-crds --verify --base-dir $TREE", exit: 1,
				files: map[string]string{"payload-manifests/crds/0000_10_gone.crd.yaml": "kind: CustomResourceDefinition\n"},
				want: []string{
					"payload-manifests/crds/0000_10_widgets_01_widgets-Default.crd.yaml is missing",
					"payload-manifests/crds/0000_10_gone.crd.yaml is untracked: no generated CRD manifest selected by payloadCRDs.include has this name; add its source to payloadCRDs.include in .gatedcrd.yaml, or let codegen payload-crds remove it",
					"codegen --verify: 4 file(s) out of date",
				}}),
		payload("group-versions", "The completeness check needs the whole tree.", allWidgets,
			tmpl{args: "payload-crds --base-dir $TREE --api-group-versions widgets.example.openshift.io/v1", exit: 2,
				want: []string{"error: payload-crds works on the whole tree (every generated file must be selected or excluded); drop --api-group-versions"}}),

		{name: "required-annotations/approval-missing", desc: "The root type lost its api-approved marker, so no final manifest carries the annotation.",
			replace: []string{types + ": // +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/7 => // Approval pending."},
			want:    []string{widget + `: type Widget: CRD widgets.widgets.example.openshift.io must carry the annotation api-approved.openshift.io (groups ending in ".openshift.io" require it) but zz_generated.crd-manifests/0000_10_widgets_01_widgets-CustomNoUpgrade.crd.yaml (and 2 more file(s)) lacks it; add +openshift:api-approved.openshift.io=<PR URL> to the type's comment`}},
		{name: "required-annotations/configured-annotation-missing", desc: "A configured annotation that no marker sets.",
			files: map[string]string{cfg: "requiredAnnotations:\n  annotations:\n  - api-approved.openshift.io\n  - owner.example.com\n"},
			want:  []string{widget + `: type Widget: CRD widgets.widgets.example.openshift.io must carry the annotation owner.example.com (groups ending in ".openshift.io" require it) but zz_generated.crd-manifests/0000_10_widgets_01_widgets-CustomNoUpgrade.crd.yaml (and 2 more file(s)) lacks it; add +kubebuilder:metadata:annotations="owner.example.com=<value>" to the type's comment`}},

		compat("missing-level", "The base tree's types carry no compatibility marker.",
			tmpl{want: []string{widget + ": type Widget: has no compatibility level: add +openshift:compatibility-gen:level=1 (the level of a GA version such as v1) or +openshift:compatibility-gen:internal"}}),
		compat("missing-level-in-crd-manifests", "crd-manifests checks the markers too once .gatedcrd.yaml enables compatibility.",
			tmpl{args: defaultArgs, files: map[string]string{cfg: "compatibility:\n  enabled: true\n"},
				want: []string{widget + ": type Widget: has no compatibility level: add +openshift:compatibility-gen:level=1"}}),
		compat("level-not-allowed", "Level 4 in a GA version.",
			tmpl{inject: []string{"root: // +openshift:compatibility-gen:level=4"},
				want: []string{at("root") + ": type Widget: level 4 is not allowed in a GA version like v1, which requires level 1; a historic GA type that must keep it needs an entry in compatibility.exceptions of .gatedcrd.yaml"}}),
		compat("level-out-of-range", "There is no level 5.",
			tmpl{inject: []string{"root: // +openshift:compatibility-gen:level=5"},
				want: []string{at("root") + ": +openshift:compatibility-gen:level=5: the level must be 1, 2, 3 or 4"}}),
		compat("internal-not-level-4", "Internal types use level 4.",
			tmpl{inject: []string{"root: // +openshift:compatibility-gen:level=1", "root: // +openshift:compatibility-gen:internal"},
				want: []string{at("root") + ": type Widget: internal types use level 4, not 1"}}),
		compat("exception-matches-nothing", "A compatibility exception naming a type that does not exist.",
			tmpl{files: map[string]string{cfg: "compatibility:\n  exceptions:\n  - widgets/v1.Gizmo\n"},
				want: []string{cfg + `:3: compatibility.exceptions: "widgets/v1.Gizmo" matches no type that embeds TypeMeta`}}),
	}
}
