@flow
Feature: Flows: logging in in the browser
  Reusable flows that other scenarios call with `When I call "..."`: a
  feature tagged @flow is not run on its own. The arguments ($user,
  $password) are remembered by the calling step.

  Scenario: Log in in the browser
    Given I open "/login"
    When I fill "User" with "$user"
    And I fill "Password" with "$password"
    And I click "Log in"
    Then I expect the URL to end with "/welcome"
    And I remember the text of "h1" as "greeting"

  Scenario: Log in and open the catalogue
    When I call "Log in in the browser"
    And I call "open-the-catalogue.feature"
