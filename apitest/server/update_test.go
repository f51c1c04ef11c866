package server

import (
	"context"
	"testing"
)

// TestUpdateCRD updates an installed CRD to another variant of its schema
// and back: the object the server validates with the new schema right
// after each update, and the CRD stays the same object (its UID). It
// also checks HasObjects before and after an object is created.
func TestUpdateCRD(t *testing.T) {
	s := sharedServer(t)
	ctx := testContext(t)
	first, err := DecodeCRDs(readTestdata(t, "widgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := DecodeCRDs(readTestdata(t, "widgets-v2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	installed, err := s.InstallCRDs(ctx, first[0])
	if err != nil {
		t.Fatal(err)
	}
	crd := installed[0]
	t.Cleanup(func() {
		if err := s.DeleteCRDs(context.Background(), crd.Name); err != nil {
			t.Errorf("deleting the CRD: %v", err)
		}
	})
	widgets := s.Objects(Resource(crd, "v1"), DefaultNamespace)
	const small = "apiVersion: apitest.gatedcrd.example/v1\nkind: Widget\nspec:\n  size: Small\n"
	const huge = "apiVersion: apitest.gatedcrd.example/v1\nkind: Widget\nspec:\n  size: Huge\n  colour: blue\n"

	if has, err := s.HasObjects(ctx, crd, "v1"); err != nil || has {
		t.Fatalf("HasObjects of a new CRD: %v, %v; want false", has, err)
	}
	obj, err := widgets.Create(ctx, mustDecodeObject(t, small))
	if err != nil {
		t.Fatal(err)
	}
	if has, err := s.HasObjects(ctx, crd, "v1"); err != nil || !has {
		t.Fatalf("HasObjects with an object: %v, %v; want true", has, err)
	}
	if err := widgets.Delete(ctx, obj.GetName()); err != nil {
		t.Fatal(err)
	}

	updated, err := s.UpdateCRD(ctx, second[0])
	if err != nil {
		t.Fatal(err)
	}
	if updated.UID != crd.UID {
		t.Errorf("UpdateCRD replaced the CRD")
	}
	_, err = widgets.Create(ctx, mustDecodeObject(t, small))
	wantInvalid(t, err, `spec.size: Unsupported value: "Small"`, `spec.colour: Required value`)
	obj, err = widgets.Create(ctx, mustDecodeObject(t, huge))
	if err != nil {
		t.Fatalf("creating a widget of the updated schema: %v", err)
	}
	if err := widgets.Delete(ctx, obj.GetName()); err != nil {
		t.Fatal(err)
	}

	if _, err := s.UpdateCRD(ctx, first[0]); err != nil {
		t.Fatal(err)
	}
	_, err = widgets.Create(ctx, mustDecodeObject(t, huge))
	wantInvalid(t, err, `spec.size: Unsupported value: "Huge"`)
}
