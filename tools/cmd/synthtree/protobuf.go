package main

import (
	"bytes"
	"fmt"
	"strings"
)

// A third of openshift/api's group-versions also carry generated.pb.go,
// the protobuf code go-to-protobuf writes for their types: 1.6 MB of the
// 6.6 MB of Go source in its API packages, with no marker in it, but
// parsed and type-checked by every package load. synthtree writes one, in
// the shape that generator gives it (Marshal, MarshalToSizedBuffer, Size,
// String and a hand-unrolled Unmarshal per struct type, and the varint
// helpers), for every protobufEvery-th group-version. The code compiles
// and is consistent with itself; it is never run.

// protobufEvery selects the group-versions that get generated.pb.go.
const protobufEvery = 3

// protobufMethods are the methods protobufGo declares on a struct type; a
// type with a field of one of these names gets none (a field and a method
// cannot share a name).
var protobufMethods = []string{"Marshal", "MarshalTo", "MarshalToSizedBuffer", "Size", "String", "Unmarshal"}

// protobufGo renders generated.pb.go for the struct types of a package.
func protobufGo(pkgName, pkg string, types []*typeDecl) ([]byte, error) {
	var b bytes.Buffer
	for _, t := range types {
		if t.Fields == nil || clashesWithProtobuf(t) {
			continue
		}
		fields := protoFields(t)
		writeProtoMarshal(&b, t.Name, fields)
		writeProtoSize(&b, t.Name, fields)
		writeProtoString(&b, t.Name, fields)
		writeProtoUnmarshal(&b, t.Name, fields)
	}
	b.WriteString(protobufHelpers)
	imports := map[string]string{"fmt": "fmt", "io": "io", "math/bits": "math_bits", "strings": "strings"}
	return assemble(pkgName, pkg, generatedLead, imports, b.Bytes())
}

// protoField is a field as the protobuf code sees it: its number and
// whether it is a plain string (copied as bytes) or anything else
// (marshalled through its printed form, which keeps the code type-agnostic).
type protoField struct {
	Name   string
	Number int
	String bool
}

func protoFields(t *typeDecl) []protoField {
	var out []protoField
	for _, f := range t.Fields {
		if f.Type.Builtin == "metav1.TypeMeta" {
			continue // go-to-protobuf leaves TypeMeta out
		}
		plain := f.Type.Builtin == "string" && !f.Type.Ptr && !f.Type.Slice && !f.Type.Map
		out = append(out, protoField{Name: f.GoName, Number: len(out) + 1, String: plain})
	}
	return out
}

func clashesWithProtobuf(t *typeDecl) bool {
	for _, f := range t.Fields {
		for _, m := range protobufMethods {
			if f.GoName == m {
				return true
			}
		}
	}
	return false
}

// protoKey is the varint encoding of a length-delimited field's key.
func protoKey(number int) []byte {
	var out []byte
	for k := uint64(number)<<3 | 2; ; k >>= 7 {
		if k < 0x80 {
			return append(out, byte(k))
		}
		out = append(out, byte(k&0x7f|0x80))
	}
}

// value is the expression a field is marshalled from, bound to s.
func (f protoField) value(recv string) string {
	if f.String {
		return recv + "." + f.Name
	}
	return "fmt.Sprint(" + recv + "." + f.Name + ")"
}

func writeProtoMarshal(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Marshal() (dAtA []byte, err error) {\n\tsize := m.Size()\n\tdAtA = make([]byte, size)\n", name)
	fmt.Fprintf(b, "\tn, err := m.MarshalToSizedBuffer(dAtA[:size])\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn dAtA[:n], nil\n}\n\n")
	fmt.Fprintf(b, "func (m *%s) MarshalTo(dAtA []byte) (int, error) {\n\tsize := m.Size()\n\treturn m.MarshalToSizedBuffer(dAtA[:size])\n}\n\n", name)
	fmt.Fprintf(b, "func (m *%s) MarshalToSizedBuffer(dAtA []byte) (int, error) {\n\ti := len(dAtA)\n\t_ = i\n\tvar l int\n\t_ = l\n", name)
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		fmt.Fprintf(b, "\t{\n\t\ts := %s\n\t\ti -= len(s)\n\t\tcopy(dAtA[i:], s)\n\t\ti = putUvarintBefore(dAtA, i, uint64(len(s)))\n", f.value("m"))
		key := protoKey(f.Number)
		for j := len(key) - 1; j >= 0; j-- {
			fmt.Fprintf(b, "\t\ti--\n\t\tdAtA[i] = 0x%x\n", key[j])
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn len(dAtA) - i, nil\n}\n\n")
}

func writeProtoSize(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Size() (n int) {\n\tif m == nil {\n\t\treturn 0\n\t}\n\tvar l int\n\t_ = l\n", name)
	for _, f := range fields {
		fmt.Fprintf(b, "\tl = len(%s)\n\tn += %d + l + uvarintSize(uint64(l))\n", f.value("m"), len(protoKey(f.Number)))
	}
	b.WriteString("\treturn n\n}\n\n")
}

func writeProtoString(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (this *%s) String() string {\n\tif this == nil {\n\t\treturn \"nil\"\n\t}\n\ts := strings.Join([]string{`&%s{`,\n", name, name)
	for _, f := range fields {
		fmt.Fprintf(b, "\t\t`%s:` + fmt.Sprintf(\"%%v\", this.%s) + `,`,\n", f.Name, f.Name)
	}
	b.WriteString("\t\t`}`,\n\t}, \"\")\n\treturn s\n}\n\n")
}

// protoVarint is a varint decoding loop written out at every use, into
// the variable v, as generated unmarshalling code does.
func protoVarint(indent, v string) string {
	r := strings.NewReplacer("\n", "\n"+indent, "V", v)
	return indent + r.Replace("for n := 0; ; n++ {\n\tif n == 10 {\n\t\treturn errOverlong\n\t}\n\tif iNdEx == l {\n\t\treturn io.ErrUnexpectedEOF\n\t}\n\tc := dAtA[iNdEx]\n\tiNdEx++\n\tV |= uint64(c&0x7f) << (7 * n)\n\tif c&0x80 == 0 {\n\t\tbreak\n\t}\n}") + "\n"
}

func writeProtoUnmarshal(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Unmarshal(dAtA []byte) error {\n\tl := len(dAtA)\n\tiNdEx := 0\n\tfor iNdEx < l {\n\t\tpreIndex := iNdEx\n\t\tvar wire uint64\n", name)
	b.WriteString(protoVarint("\t\t", "wire"))
	fmt.Fprintf(b, "\t\tfieldNum := int32(wire >> 3)\n\t\twireType := int(wire & 0x7)\n\t\tif wireType == 4 {\n\t\t\treturn fmt.Errorf(\"generated: %s: a group ends outside any group\")\n\t\t}\n", name)
	fmt.Fprintf(b, "\t\tif fieldNum <= 0 {\n\t\t\treturn fmt.Errorf(\"generated: %s: field number %%d in key %%d is not valid\", fieldNum, wire)\n\t\t}\n\t\tswitch fieldNum {\n", name)
	for _, f := range fields {
		fmt.Fprintf(b, "\t\tcase %d:\n\t\t\tif wireType != 2 {\n\t\t\t\treturn fmt.Errorf(\"generated: field %s has wire type %%d, want 2\", wireType)\n\t\t\t}\n\t\t\tvar byteLen uint64\n", f.Number, f.Name)
		b.WriteString(protoVarint("\t\t\t", "byteLen"))
		b.WriteString("\t\t\tpostIndex := iNdEx + int(byteLen)\n\t\t\tif int(byteLen) < 0 || postIndex < 0 {\n\t\t\t\treturn errBadLength\n\t\t\t}\n\t\t\tif postIndex > l {\n\t\t\t\treturn io.ErrUnexpectedEOF\n\t\t\t}\n")
		if f.String {
			fmt.Fprintf(b, "\t\t\tm.%s = string(dAtA[iNdEx:postIndex])\n", f.Name)
		} else {
			b.WriteString("\t\t\t_ = dAtA[iNdEx:postIndex]\n")
		}
		b.WriteString("\t\t\tiNdEx = postIndex\n")
	}
	b.WriteString("\t\tdefault:\n\t\t\tiNdEx = preIndex\n\t\t\tskippy, err := skipUnknown(dAtA[iNdEx:])\n\t\t\tif err != nil {\n\t\t\t\treturn err\n\t\t\t}\n")
	b.WriteString("\t\t\tif (skippy < 0) || (iNdEx+skippy) < 0 {\n\t\t\t\treturn errBadLength\n\t\t\t}\n\t\t\tif (iNdEx + skippy) > l {\n\t\t\t\treturn io.ErrUnexpectedEOF\n\t\t\t}\n\t\t\tiNdEx += skippy\n\t\t}\n\t}\n")
	b.WriteString("\tif iNdEx > l {\n\t\treturn io.ErrUnexpectedEOF\n\t}\n\treturn nil\n}\n\n")
}

// protobufHelpers are the package-level helpers the methods above call:
// our own varint writer, sizer, reader and field skipper, about as much
// code as a generated file carries.
const protobufHelpers = `// putUvarintBefore writes v as a varint that ends just before end and
// returns where it starts.
func putUvarintBefore(buf []byte, end int, v uint64) int {
	start := end - uvarintSize(v)
	at := start
	for ; v > 0x7f; at++ {
		buf[at] = byte(v) | 0x80
		v >>= 7
	}
	buf[at] = byte(v)
	return start
}

// uvarintSize is the number of bytes v takes as a varint.
func uvarintSize(v uint64) int {
	return 1 + (math_bits.Len64(v)-1)/7
}

// readUvarint decodes the varint at data[at:] and returns it with the
// position after it.
func readUvarint(data []byte, at int) (uint64, int, error) {
	var v uint64
	for n := 0; n < 10; n++ {
		if at >= len(data) {
			return 0, at, io.ErrUnexpectedEOF
		}
		c := data[at]
		at++
		v |= uint64(c&0x7f) << (7 * n)
		if c&0x80 == 0 {
			return v, at, nil
		}
	}
	return 0, at, errOverlong
}

// skipUnknown returns the length of the field (key and value) at the start
// of data, nested groups included.
func skipUnknown(data []byte) (int, error) {
	at, open := 0, 0
	for {
		key, next, err := readUvarint(data, at)
		if err != nil {
			return 0, err
		}
		at = next
		switch key & 7 {
		case 0:
			if _, at, err = readUvarint(data, at); err != nil {
				return 0, err
			}
		case 1:
			at += 8
		case 2:
			size, next, err := readUvarint(data, at)
			if err != nil {
				return 0, err
			}
			if size > uint64(len(data)) {
				return 0, errBadLength
			}
			at = next + int(size)
		case 3:
			open++
		case 4:
			if open == 0 {
				return 0, errStrayGroupEnd
			}
			open--
		case 5:
			at += 4
		default:
			return 0, fmt.Errorf("generated: wire type %d is not known", key&7)
		}
		if at > len(data) {
			return 0, io.ErrUnexpectedEOF
		}
		if open == 0 {
			return at, nil
		}
	}
}

var (
	errBadLength     = fmt.Errorf("generated: a length runs past the end of the data")
	errOverlong = fmt.Errorf("generated: a varint is longer than ten bytes")
	errStrayGroupEnd = fmt.Errorf("generated: a group ends that never began")
)
`
