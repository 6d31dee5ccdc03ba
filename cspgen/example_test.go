package cspgen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/widgetd/widgetd/cspgen"
)

func ExampleNew() {
	p, err := cspgen.New(cspgen.Domains{
		Resource: []string{"HTTPS://CDN.example.com:443/", "https://*.static.example.com", "https://cdn.example.com"},
		Connect:  []string{"wss://rt.example.com", "https://api.example.com"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Domains().Resource)
	fmt.Println(p.Domains().Connect)

	_, err = cspgen.New(cspgen.Domains{Resource: []string{"https://cdn.example.com", "'unsafe-eval'"}})
	var e *cspgen.Error
	if errors.As(err, &e) {
		fmt.Println(e.Field, e.Index)
	}
	fmt.Println(err)

	_, err = cspgen.New(cspgen.Domains{Connect: []string{"api.example.com"}})
	fmt.Println(err)
	// Output:
	// [https://*.static.example.com https://cdn.example.com]
	// [https://api.example.com wss://rt.example.com]
	// resourceDomains 1
	// resourceDomains[1] "'unsafe-eval'": CSP keywords such as 'unsafe-eval' are not origins and hosts reject them in these lists; remove it
	// connectDomains[0] "api.example.com": missing scheme; write "https://api.example.com"
}

func ExamplePolicy_Header() {
	p, _ := cspgen.New(cspgen.Domains{
		Resource: []string{"https://cdn.example.com"},
		Connect:  []string{"https://api.example.com"},
	})
	for _, d := range strings.Split(p.Header(), "; ") {
		fmt.Println(d)
	}
	// Output:
	// default-src 'none'
	// script-src 'self' 'unsafe-inline' https://cdn.example.com
	// style-src 'self' 'unsafe-inline' https://cdn.example.com
	// connect-src 'self' https://api.example.com
	// img-src 'self' data: https://cdn.example.com
	// font-src 'self' https://cdn.example.com
	// media-src 'self' data: https://cdn.example.com
	// frame-src 'none'
	// object-src 'none'
	// base-uri 'self'
}

func ExamplePolicy_UIMeta() {
	p, _ := cspgen.New(cspgen.Domains{
		Resource: []string{"https://cdn.example.com"},
		Redirect: []string{"https://checkout.example.com"},
	})
	ui, _ := json.Marshal(p.UIMeta())
	openai, _ := json.Marshal(p.OpenAIMeta())
	fmt.Println(string(ui))
	fmt.Println(string(openai))
	// Output:
	// {"connectDomains":[],"resourceDomains":["https://cdn.example.com"]}
	// {"connect_domains":[],"redirect_domains":["https://checkout.example.com"],"resource_domains":["https://cdn.example.com"]}
}

func ExamplePolicy_Allows() {
	p, _ := cspgen.New(cspgen.Domains{
		Resource: []string{"https://*.static.example.com"},
		Connect:  []string{"https://api.example.com"},
	})
	for _, c := range []struct {
		d   cspgen.Directive
		url string
	}{
		{cspgen.ScriptSrc, "https://js.static.example.com/app.js"},
		{cspgen.ScriptSrc, "https://static.example.com/app.js"},
		{cspgen.ConnectSrc, "wss://api.example.com/live"},
		{cspgen.ConnectSrc, "https://api.example.com:8443/"},
		{cspgen.ImgSrc, "data:image/png;base64,iVBORw0KGgo="},
		{cspgen.ScriptSrc, "data:text/javascript,alert(1)"},
	} {
		fmt.Println(c.d, c.url, p.Allows(c.d, c.url))
	}
	origin, _ := cspgen.OriginOf("https://fonts.gstatic.com/s/inter.woff2")
	fmt.Printf("add %q to %s\n", origin, cspgen.FontSrc.List())
	// Output:
	// script-src https://js.static.example.com/app.js true
	// script-src https://static.example.com/app.js false
	// connect-src wss://api.example.com/live true
	// connect-src https://api.example.com:8443/ false
	// img-src data:image/png;base64,iVBORw0KGgo= true
	// script-src data:text/javascript,alert(1) false
	// add "https://fonts.gstatic.com" to resourceDomains
}
