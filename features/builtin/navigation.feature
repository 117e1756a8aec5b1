@builtin
Feature: Built-in steps: navigation
  Opening pages, the browser history, and checks on the URL and the title.
  These features use only the built-in step library (docs/steps-guide.md).

  Scenario: Opening pages and going back and forth
    Given I open "/login"
    Then I expect the URL to equal "/login"
    And I expect the URL path to equal "/login"
    And I expect the title to equal "Log in · Demo app"
    And I expect the title not to contain "Todo"
    When I open "/slow.html?delay=300"
    Then I expect the URL to contain "slow.html"
    And I expect the URL not to match "login$"
    And I expect the URL parameter "delay" to equal "300"
    And I expect the URL parameter "missing" not to equal "300"
    And I expect the URL path to start with "/slow"
    And I expect the URL path not to end with "/login"
    When I go back
    Then I expect the URL to match "/login$"
    When I go forward
    Then I expect the URL path to equal "/slow.html"
    When I reload the page
    Then I expect the title to match "^Slow page"
    And I expect the title not to equal "Log in · Demo app"
