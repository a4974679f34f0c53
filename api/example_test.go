package api_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/genplay/genplay/api"
)

// Handler serves the API; genplay serve mounts it next to the playground.
func ExampleHandler() {
	srv := httptest.NewServer(api.Handler(api.Options{}))
	defer srv.Close()

	res, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Print(res.StatusCode, " ", string(body))

	// A scenario that does not parse answers 422 with its position.
	res, err = http.Post(srv.URL+"/api/v1/run?file=mine.yaml", "text/yaml", strings.NewReader("kind: Test\nspec: [\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()
	fmt.Println(res.StatusCode, res.Header.Get("Content-Type"))
	// Output:
	// 200 {
	//   "format": "genplay.timeline/v2",
	//   "status": "ok"
	// }
	// 422 application/json
}
