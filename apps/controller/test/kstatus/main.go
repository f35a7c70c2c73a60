// kstatus reads Kubernetes objects as JSON (one array on stdin) and prints, as one JSON array on
// stdout, what sigs.k8s.io/cli-utils's kstatus computes for each: the verdict Flux's health checks
// and kpt give the same object. The controller's real-control-plane tests compare it with
// docs/spec/children-and-status.md §8.12 and docs/spec/registration.md §5.6.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

type verdict struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Error   string `json:"error,omitempty"`
}

func main() {
	// Unstructured's own decoding: integers stay int64, which kstatus's accessors require.
	var objects []json.RawMessage
	if err := json.NewDecoder(os.Stdin).Decode(&objects); err != nil {
		fmt.Fprintf(os.Stderr, "kstatus: stdin is not a JSON array of objects: %v\n", err)
		os.Exit(2)
	}
	verdicts := make([]verdict, 0, len(objects))
	for _, object := range objects {
		resource := &unstructured.Unstructured{}
		if err := resource.UnmarshalJSON(object); err != nil {
			verdicts = append(verdicts, verdict{Error: err.Error()})
			continue
		}
		result, err := status.Compute(resource)
		if err != nil {
			verdicts = append(verdicts, verdict{Error: err.Error()})
			continue
		}
		verdicts = append(verdicts, verdict{Status: result.Status.String(), Message: result.Message})
	}
	if err := json.NewEncoder(os.Stdout).Encode(verdicts); err != nil {
		fmt.Fprintf(os.Stderr, "kstatus: %v\n", err)
		os.Exit(1)
	}
}
