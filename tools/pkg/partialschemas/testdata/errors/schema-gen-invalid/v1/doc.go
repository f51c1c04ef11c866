// +groupName=schema-gen-invalid.example.io
// +openshift:featuregated-schema-gen=yes
package v1
