@builtin @api
Feature: Built-in steps: flows called once, and examples from data files
  The login flow (api-flows/login.feature) runs once for the whole run,
  whichever scenario calls it first; every scenario gets its $token.

  Background:
    Given I call "Log in through the API" once with:
      | user     | demo   |
      | password | secret |
    And I authenticate requests with the bearer token "$token"

  Scenario: The token the flow remembered
    When I send a GET request to "/api/me"
    Then I expect the response status to equal 200
    And I expect the response field "authenticatedWith" to equal "bearer"

  Scenario: A flow without arguments, once
    Given I call "Check the API's health" once
    Then I expect "$health" to equal "ok"

  Scenario: Calling it once more gives the same token
    Given I remember "$token" as "first"
    When I call "Log in through the API" once with:
      | user     | demo   |
      | password | secret |
    Then I expect "$token" to equal "$first"

  Scenario Outline: User <id> lives in <city> (rows from a CSV file)
    When I send a GET request to "/api/users/<id>"
    Then I expect the response field "name" to equal "<name>"
    And I expect the response field "address.city" to equal "$city"

    @from:api-fixtures/users.csv
    Examples:

  Scenario Outline: <count> user(s) with the role <role> (rows from a JSON file)
    Given the request query parameter "role" is "<role>"
    When I send a GET request to "/api/users"
    Then I expect the response field "total" to equal <count>

    @from:api-fixtures/roles.json
    Examples:
