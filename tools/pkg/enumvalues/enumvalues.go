package enumvalues

import (
	"fmt"
	"go/constant"
	"go/types"
	"sort"
)

// Of returns the sorted, de-duplicated string values of every constant of
// type named declared at package level in pkgs. It fails when the type is
// not a string type or when no constant of it exists: an enum without
// values would reject every value.
func Of(named *types.Named, pkgs []*types.Package) ([]string, error) {
	basic, ok := named.Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsString == 0 {
		return nil, fmt.Errorf("type %s is not a string type (its underlying type is %s); +enum needs string constants", named.Obj().Name(), named.Underlying())
	}
	seen := map[string]bool{}
	var values []string
	for _, pkg := range pkgs {
		if pkg == nil {
			continue
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			c, ok := scope.Lookup(name).(*types.Const)
			if !ok || !types.Identical(c.Type(), named) || c.Val().Kind() != constant.String {
				continue
			}
			v := constant.StringVal(c.Val())
			if !seen[v] {
				seen[v] = true
				values = append(values, v)
			}
		}
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("no constant of type %s is declared in the loaded packages; +enum takes its values from them", named.Obj().Name())
	}
	sort.Strings(values)
	return values, nil
}
