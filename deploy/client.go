package deploy

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// ClientOptions says how to reach the store; credentials always come from
// the standard AWS chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
// AWS_PROFILE and the shared files, SSO, web identity, ECS/EC2 roles).
type ClientOptions struct {
	// Endpoint is the S3 API URL of a store other than AWS S3, e.g.
	// https://<account>.r2.cloudflarestorage.com or
	// https://storage.googleapis.com; "" for AWS. With an endpoint, requests
	// use path-style addressing (the form every S3-compatible store accepts)
	// and send checksums only where the API requires them (some stores
	// reject the SDK's default CRC32 trailers).
	Endpoint string
	// Region overrides the chain's region; with an endpoint and no region
	// anywhere, "us-east-1" (R2 also accepts "auto").
	Region string
	// HTTPClient, when set, carries the requests (a proxy, a custom CA).
	HTTPClient *http.Client
}

// NewClient returns an S3 client configured from the standard AWS chain and o.
func NewClient(ctx context.Context, o ClientOptions) (*s3.Client, error) {
	var loads []func(*config.LoadOptions) error
	if o.Region != "" {
		loads = append(loads, config.WithRegion(o.Region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loads...)
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration (credentials and region from the standard chain): %w", err)
	}
	withHTTP := func(so *s3.Options) {
		if o.HTTPClient != nil {
			so.HTTPClient = o.HTTPClient
		}
	}
	if o.Endpoint == "" {
		if cfg.Region == "" {
			return nil, fmt.Errorf("no AWS region: set AWS_REGION, a region in ~/.aws/config, or --region")
		}
		return s3.NewFromConfig(cfg, withHTTP), nil
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	cfg.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
	cfg.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	return s3.NewFromConfig(cfg, withHTTP, func(so *s3.Options) {
		so.BaseEndpoint = aws.String(o.Endpoint)
		so.UsePathStyle = true
	}), nil
}
